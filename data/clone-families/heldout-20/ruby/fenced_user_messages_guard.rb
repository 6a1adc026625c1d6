fenced = []
history = context[:conversation_history] || []
history.each do |note|
  next unless note.is_a?(Hash) && note[:role] == "user"

  body = note[:content]
  next if body.nil?

  fenced << note[:call_id] if body.is_a?(String) && body.include?("```")
end
Agent::Outcome.ok(fenced)
