history = Array(context[:conversation_history])
pattern = /\b(?:by|before|until) (?:today|tonight|tomorrow|eod|noon|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/i
rows = history.filter_map do |record|
  text = record[:content]
  next unless record[:role] == "user" && text.is_a?(String) && text.match?(pattern)

  { call_id: record[:call_id], text: text }
end
Agent::Outcome.ok(rows)
