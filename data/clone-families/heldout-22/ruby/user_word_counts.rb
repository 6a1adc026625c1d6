history = Array(context[:conversation_history])
rows = history.filter_map do |record|
  text = record[:content]
  next unless record[:role] == "user" && text.is_a?(String)

  { call_id: record[:call_id], words: text.split.size }
end
Agent::Outcome.ok(rows)
