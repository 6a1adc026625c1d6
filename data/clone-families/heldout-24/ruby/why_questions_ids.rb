history = Array(context[:conversation_history])
questions = []
history.each do |record|
  next unless record.is_a?(Hash)

  text = record[:content]
  next unless record[:role] == "user" && text.is_a?(String) && text.match?(/\A\s*why\b/i)

  questions << { call_id: record[:call_id] }
end
Agent::Outcome.ok(questions)
