items = context[:conversation_history] || []
n = 0
n += 1 while n < items.size && (items[n][:outcome_summary] || {})[:ok]
if n == items.size
  "All #{n} records succeeded."
else
  "#{n} records succeeded before the first failure (#{items[n][:call_id]})."
end
