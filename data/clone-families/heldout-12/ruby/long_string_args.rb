LIMIT = 80

history = context[:conversation_history] || []
oversized = []
history.each do |rec|
  next if rec[:method_name].nil? || rec[:method_name].empty?
  args = rec[:args] || []
  next unless args.any? { |arg| arg.is_a?(String) && arg.length > LIMIT }
  oversized << rec[:call_id]
end
oversized
