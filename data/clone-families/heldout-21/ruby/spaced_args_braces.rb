counts = Hash.new(0)
history = context[:conversation_history] || []
history.each { |record|
  name = record[:method_name]
  next if name.to_s.empty?

  Array(record[:args]).each { |arg| counts[name] += 1 if arg.is_a?(String) && arg.match?(/\S\s+\S/) }
}
counts
