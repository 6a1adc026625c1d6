history = Array(context[:conversation_history])
questions = []
history.each do |record|
  text = record[:content]
  next unless record[:role] == "user" && text.is_a?(String) && text.match?(/\A\s*why\b/i)

  questions << { call_id: record[:call_id], line: text.strip.lines.first.chomp }
end
Agent::Outcome.ok(questions)
