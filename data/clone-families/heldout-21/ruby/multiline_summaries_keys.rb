history = context.fetch(:conversation_history, nil) || []
hits = history.select { |record|
  outcome = record[:outcome_summary] || {}
  outcome[:ok] == true && outcome[:summary].is_a?(String) && outcome[:summary].include?("\n")
}
Agent::Outcome.ok(hits.map do |record| { id: record[:call_id], text: record[:outcome_summary][:summary] } end)
