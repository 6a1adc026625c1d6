history = context.fetch(:conversation_history, nil) || []
shapes = []
history.each do |record|
  method = record[:method_name]
  args = record[:args]
  kwargs = record[:kwargs]
  next if method.nil? || method.empty?

  shapes << { call_id: record[:call_id], method: method, args: Array(args).size, keys: kwargs.is_a?(Hash) ? kwargs.keys : [] }
end
shapes
