history = context[:conversation_history] || []
lines = []
history.each_cons(2) do |a, b|
  next unless a[:role] == "user" && b[:role] == "assistant"
  next unless a[:content].is_a?(String) && b[:content].is_a?(String) && !a[:content].empty?

  factor = b[:content].length.to_f / a[:content].length
  lines << format("%s: reply is %.1fx the message (%d vs %d chars)", a[:call_id], factor, b[:content].length, a[:content].length)
end
lines.empty? ? "No user message was answered directly by the assistant." : lines.join("\n")
