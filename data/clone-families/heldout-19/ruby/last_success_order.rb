history = context[:conversation_history] || []
order = []
history.each do |record|
  outcome = record[:outcome_summary] || {}
  next unless outcome[:ok] == true

  method = record[:method_name]
  next if method.nil? || method.empty?

  order.delete(method)
  order << method
end
order
