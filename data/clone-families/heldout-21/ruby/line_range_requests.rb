history = context[:conversation_history] || []
matches = []
history.each do |record|
  text = record[:content]
  next unless record[:role] == "user" && text.is_a?(String)

  matches << { call_id: record[:call_id], text: text } if text.match?(/\blines? \d+\s*-\s*\d+\b/i)
end
matches
