LIMIT = 80

history = context[:conversation_history] || []
oversized = []
history.each do |rec|
  next if rec[:method_name].nil? || rec[:method_name].empty?
  args = rec[:args] || []
  total = args.sum { |arg| arg.is_a?(String) ? arg.length : 0 }
  next unless total > LIMIT
  oversized << rec[:call_id]
end
oversized
