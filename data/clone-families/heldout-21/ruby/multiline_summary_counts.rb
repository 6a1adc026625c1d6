history = context.fetch(:conversation_history, nil) || []
hits = history.select do |record|
  outcome = record[:outcome_summary] || {}
  outcome[:ok] == true && outcome[:summary].is_a?(String) && outcome[:summary].include?("\n")
end
Agent::Outcome.ok(hits.reject { |record| record[:method_name].to_s.empty? }.map { |record| record[:method_name] }.tally)
