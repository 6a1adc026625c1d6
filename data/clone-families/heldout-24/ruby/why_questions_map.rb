history = Array(context[:conversation_history])
asked = history.select { |record|
  record[:role] == "user" && record[:content].is_a?(String) && record[:content].match?(/\A\s*why\b/i)
}
questions = asked.map { |record| { id: record[:call_id], first_line: record[:content].strip.lines.first.chomp } }
Agent::Outcome.ok(questions)
