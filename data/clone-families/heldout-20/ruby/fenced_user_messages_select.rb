history = context[:conversation_history] || []
with_code = history.select { |msg|
  next false unless msg[:role] == "user"

  msg[:content].is_a?(String) && msg[:content].include?("```")
}
Agent::Outcome.ok(with_code.map { |msg| msg[:call_id] })
