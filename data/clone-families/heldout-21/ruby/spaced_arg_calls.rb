history = context[:conversation_history] || []
calls = []
history.each do |record|
  name = record[:method_name]
  next if name.to_s.empty?

  spaced = Array(record[:args]).any? { |arg| arg.is_a?(String) && arg.match?(/\S\s+\S/) }
  calls << record[:call_id] if spaced
end
calls
