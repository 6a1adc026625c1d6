calls = context[:conversation_history] || []
calls.flat_map do |call|
  name = call[:method_name]
  next [] if name.to_s.empty?

  Array(call[:args]).select { |arg| arg.is_a?(String) && arg.match?(/\S\s+\S/) }.map { name }
end.tally
