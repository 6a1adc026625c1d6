history = Array(context[:conversation_history])
windows = []
history.each_with_index do |record, index|
  next unless record.dig(:outcome_summary, :ok) == false

  message = record.dig(:outcome_summary, :error_message)
  windows << { failure: record[:call_id], index: index } if message.is_a?(String) && message.match?(/\b(denied|forbidden)\b/i)
end
windows
