history = context[:conversation_history] || []
hits = []
(0...history.size - 1).each do |i|
  a = history[i]
  u = history[i + 1]
  next if a[:role] != "assistant" || u[:role] != "user"

  body = u[:content]
  next unless body.is_a?(String) && body.downcase.match?(/\b(thanks|thank you|thx)\b/)

  hits << "#{a[:call_id]} (#{a[:speaker]})"
end
hits.empty? ? "No reply was followed by thanks." : "Replies the user thanked: #{hits.join(', ')}"
