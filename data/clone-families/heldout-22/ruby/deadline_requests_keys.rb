messages = Array(context[:conversation_history])
due = /\b(?:by|before|until) (?:today|tonight|tomorrow|eod|noon|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/i
urgent = messages.filter_map do |msg|
  body = msg[:content]
  next unless msg[:role] == "user" && body.is_a?(String) && body.match?(due)

  { message_id: msg[:call_id], request: body }
end
Agent::Outcome.ok(urgent)
