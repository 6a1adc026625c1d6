history = context[:conversation_history] || []
thanked = []
history.each_with_index do |rec, i|
  next unless rec[:role] == "assistant"

  nxt = history[i + 1]
  next unless nxt && nxt[:role] == "user"

  text = nxt[:content]
  thanked << rec[:call_id] if text.is_a?(String) && text.match?(/\b(thanks|thank you|thx)\b/i)
end
thanked
