history = context.fetch(:conversation_history, nil) || []
calls = []
history.each do |record|
  method = record[:method_name]
  args = record[:args]
  kwargs = record[:kwargs]
  next if method.nil? || method.empty?
  next unless (args.nil? || args == []) && kwargs.is_a?(Hash) && !kwargs.empty?

  calls << { call_id: record[:call_id], method: method, keys: kwargs.keys }
end
calls
