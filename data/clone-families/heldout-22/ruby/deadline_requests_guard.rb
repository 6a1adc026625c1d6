history = Array(context[:conversation_history])
pattern = /\b(?:by|before|until) (?:today|tonight|tomorrow|eod|noon|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/i
rows = history.filter_map { |record|
  next unless record.is_a?(Hash)

  text = record[:content]
  next if text.nil? || !text.is_a?(String) || text.empty?
  next unless record[:role] == "user" && text.match?(pattern)

  { call_id: record[:call_id], text: text }
}
Agent::Outcome.ok(rows)
