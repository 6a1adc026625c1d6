history = Array(context[:conversation_history])
lines = []
history.each do |record|
  text = record[:content]
  next unless record[:role] == "user" && text.is_a?(String) && !text.strip.empty?

  lines << { call_id: record[:call_id], line: text.strip.lines.first.chomp }
end
Agent::Outcome.ok(lines)
