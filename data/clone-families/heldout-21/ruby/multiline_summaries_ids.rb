history = context.fetch(:conversation_history, nil) || []
hits = history.select do |record|
  next false unless record.is_a?(Hash)

  outcome = record[:outcome_summary] || {}
  next false unless outcome.is_a?(Hash)

  outcome[:ok] == true && outcome[:summary].is_a?(String) && outcome[:summary].include?("\n")
end
Agent::Outcome.ok(hits.map { |record| record[:call_id] })
