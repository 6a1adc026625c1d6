history = context[:conversation_history] || []
matches = []
history.each { |record|
  text = record[:content]
  next unless record[:role] == "user" && text.is_a?(String)

  matches << record[:call_id] if text.match?(/\blines? \d+\s*-\s*\d+\b/i)
}
matches
