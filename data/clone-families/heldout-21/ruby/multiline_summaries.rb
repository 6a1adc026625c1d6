history = context.fetch(:conversation_history, nil) || []
hits = history.select do |record|
  outcome = record[:outcome_summary] || {}
  outcome[:ok] == true && outcome[:summary].is_a?(String) && outcome[:summary].include?("\n")
end
Agent::Outcome.ok(hits.map { |record| { call_id: record[:call_id], summary: record[:outcome_summary][:summary] } })
