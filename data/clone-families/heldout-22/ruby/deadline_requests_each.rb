pattern = /\b(?:by|before|until) (?:today|tonight|tomorrow|eod|noon|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/i
history = Array(context[:conversation_history])
rows = []
history.each do |record|
  text = record[:content]
  next unless record[:role] == "user" && text.is_a?(String) && text.match?(pattern)

  rows << { call_id: record[:call_id], text: text }
end
Agent::Outcome.ok(rows)
