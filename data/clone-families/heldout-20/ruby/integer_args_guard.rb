counts = Hash.new(0)
history = context[:conversation_history] || []
history.each do |call|
  next unless call.is_a?(Hash)

  name = call[:method_name]
  next if name.nil? || name.empty?

  Array(call[:args]).each do |arg|
    counts[name] += 1 if arg.is_a?(Integer)
  end
end
counts
