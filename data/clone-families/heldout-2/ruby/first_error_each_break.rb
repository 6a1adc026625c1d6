message = nil
(context[:conversation_history] || []).each do |entry|
  outcome = entry[:outcome_summary] || {}
  next unless outcome[:ok] == false
  message = outcome[:error_message]
  break
end
result = message
