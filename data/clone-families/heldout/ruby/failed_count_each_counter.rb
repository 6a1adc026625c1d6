history = context[:conversation_history] || []
n = 0
history.each do |h|
  outcome = h[:outcome_summary] || {}
  n += 1 unless outcome[:ok]
end
result = { failed: n }
