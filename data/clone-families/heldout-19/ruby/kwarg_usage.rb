history = context[:conversation_history] || []
calls = Hash.new(0)
with_kwargs = Hash.new(0)
history.each do |record|
  method = record[:method_name]
  next if method.nil? || method.empty?

  calls[method] += 1
  kwargs = record[:kwargs]
  with_kwargs[method] += 1 if kwargs.is_a?(Hash) && !kwargs.empty?
end
calls.to_h { |m, n| [m, (with_kwargs[m].to_f / n).round(3)] }
