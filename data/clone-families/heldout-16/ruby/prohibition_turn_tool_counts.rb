history = context[:conversation_history] || []
counts = []
history.each_with_index do |rec, i|
  next unless rec[:role] == "user"

  text = rec[:content]
  next unless text.is_a?(String)
  next unless text.match?(/\b(?:don['’]t|do not|never)\s+([^.!?\n]+)/i)

  turn = history[(i + 1)..].take_while { |later| later[:role] != "user" }
  counts << [rec[:call_id], turn.count { |later| later[:role] == "tool" }]
end
counts
