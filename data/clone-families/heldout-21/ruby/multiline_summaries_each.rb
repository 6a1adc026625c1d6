entries = context.fetch(:conversation_history, nil) || []
found = []
entries.each do |entry|
  result = entry[:outcome_summary] || {}
  next unless result[:ok] == true && result[:summary].is_a?(String) && result[:summary].include?("\n")

  found << { call_id: entry[:call_id], summary: result[:summary] }
end
Agent::Outcome.ok(found)
