history = context[:conversation_history] || []
history.filter_map do |record|
  text = record[:content]
  next unless record[:role] == "user" && text.is_a?(String)

  { message_id: record[:call_id], request: text } if text.match?(/\blines? \d+\s*-\s*\d+\b/i)
end
