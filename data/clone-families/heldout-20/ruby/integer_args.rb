history = context[:conversation_history] || []
counts = Hash.new(0)
history.each do |call|
  name = call[:method_name]
  next if name.nil? || name.empty?

  Array(call[:args]).each { |arg| counts[name] += 1 if arg.is_a?(Integer) }
end
counts
