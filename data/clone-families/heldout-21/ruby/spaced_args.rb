history = context[:conversation_history] || []
counts = Hash.new(0)
history.each do |record|
  name = record[:method_name]
  next if name.to_s.empty?

  Array(record[:args]).each do |arg|
    counts[name] += 1 if arg.is_a?(String) && arg.match?(/\S\s+\S/)
  end
end
counts
