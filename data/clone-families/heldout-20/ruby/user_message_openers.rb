history = context[:conversation_history] || []
openers = []
history.each do |message|
  next unless message[:role] == "user"

  body = message[:content]
  openers << [message[:call_id], body.is_a?(String) ? body.lines.first.to_s.chomp : ""]
end
Agent::Outcome.ok(openers)
