history = context[:conversation_history] || []
history.filter_map { |record|
  outcome = record[:outcome_summary] || {}
  message = outcome[:error_message]
  next unless outcome[:ok] == false && message.is_a?(String) && message.length > 80

  record[:call_id]
}
