history = context[:conversation_history] || []
calls = Hash.new(0)
kwarg_total = Hash.new(0)
history.each do |record|
  method = record[:method_name]
  next if method.nil? || method.empty?

  calls[method] += 1
  kwargs = record[:kwargs]
  kwarg_total[method] += kwargs.size if kwargs.is_a?(Hash)
end
calls.to_h { |m, n| [m, (kwarg_total[m].to_f / n).round(3)] }
