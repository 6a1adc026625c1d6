history = context[:conversation_history] || []
history.filter_map do |record|
  next unless record.is_a?(Hash)

  outcome = record[:outcome_summary]
  next unless outcome.is_a?(Hash)

  message = outcome[:error_message]
  next unless outcome[:ok] == false && message.is_a?(String) && message.length > 80

  { failed_call: record[:call_id], message_chars: message.length }
end
