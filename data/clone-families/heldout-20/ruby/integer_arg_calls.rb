history = context[:conversation_history] || []
calls = []
history.each do |call|
  name = call[:method_name]
  next if name.nil? || name.empty?

  calls << call[:call_id] if Array(call[:args]).any? { |arg| arg.is_a?(Integer) }
end
calls
