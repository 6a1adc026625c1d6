counts = Hash.new(0)
history = context[:conversation_history] || []
history.each do |record|
  next unless record.is_a?(Hash)

  name = record[:method_name]
  next if name.nil? || name.to_s.empty?

  args = record[:args]
  next unless args.nil? || args.is_a?(Array)

  Array(args).each do |arg|
    counts[name] += 1 if arg.is_a?(String) && arg.match?(/\S\s+\S/)
  end
end
counts
