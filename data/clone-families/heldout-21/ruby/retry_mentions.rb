history = context.fetch(:conversation_history, nil) || []
hits = history.select do |record|
  record[:content].is_a?(String) && record[:content].match?(/\b(retry|retrying|again)\b/i)
end
rows = hits.map { |record| [record[:call_id], record[:content]] }
Agent::Outcome.ok(rows)
