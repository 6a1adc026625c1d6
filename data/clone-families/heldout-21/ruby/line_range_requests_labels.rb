history = context[:conversation_history] || []
matches = []
history.each do |record|
  next unless record.is_a?(Hash)

  text = record[:content]
  next unless record[:role] == "user" && text.is_a?(String)
  next if text.strip.empty?

  matches << { id: record[:call_id], content: text } if text.match?(/\blines? \d+\s*-\s*\d+\b/i)
end
matches
