hist = context[:conversation_history] || []
result = hist.each_with_object({}) do |h, acc|
  m = h[:method_name]
  acc[m] = h[:call_id] if m
end
