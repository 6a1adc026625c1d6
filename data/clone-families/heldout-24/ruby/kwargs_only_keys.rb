calls = []
history = context.fetch(:conversation_history, nil) || []
history.each do |record|
  method = record[:method_name]
  kwargs = record[:kwargs]
  args = record[:args]
  next if method.nil? || method.empty?
  next unless (args.nil? || args == []) && kwargs.is_a?(Hash) && !kwargs.empty?

  calls << { id: record[:call_id], name: method, kwarg_names: kwargs.keys }
end
calls
