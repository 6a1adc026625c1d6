history = context[:conversation_history] || []
fenced = []
history.each do |message|
  next unless message[:role] == "user"

  body = message[:content]
  fenced << message[:call_id] if body.is_a?(String) && body.include?("```")
end
Agent::Outcome.ok(fenced)
