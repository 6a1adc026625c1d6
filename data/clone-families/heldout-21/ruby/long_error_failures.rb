history = context[:conversation_history] || []
history.filter_map do |record|
  outcome = record[:outcome_summary] || {}
  message = outcome[:error_message]
  next unless outcome[:ok] == false && message.is_a?(String) && message.length > 80

  { call_id: record[:call_id], length: message.length }
end
