method = kwargs[:method]
found = nil
(context[:conversation_history] || []).reverse_each do |h|
  next unless h[:method_name] == method
  found = h
  break
end
result = found.nil? ? nil : { method: method, args: found[:args], kwargs: found[:kwargs], call_id: found[:call_id] }
