history = Array(context[:conversation_history])
last_user = history.rindex { |reply| reply[:role] == "user" }
recent = last_user.nil? ? history : history[(last_user + 1)..]
replies = recent.select do |reply|
  reply[:role] == "assistant" && reply[:content].is_a?(String)
end
Agent::Outcome.ok(replies.map { |reply| [reply[:call_id], reply[:content]] })
