history = Array(context[:conversation_history])
pattern = /\b(?:by|before|until) (?:today|tonight|tomorrow|eod|noon|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/i
rows = history.filter_map { |record|
  text = record[:content]
  next unless record[:role] == "user" && text.is_a?(String) && text.match?(pattern)

  { id: record[:call_id] }
}
Agent::Outcome.ok(rows)
