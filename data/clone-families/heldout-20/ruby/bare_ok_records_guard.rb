history = Array(context[:conversation_history])
return_value = []
unless history.empty?
  bare = history.select { |record|
    next false unless record.is_a?(Hash)

    outcome = record[:outcome_summary] || {}
    outcome[:ok] == true && outcome[:summary].to_s.strip.empty?
  }
  return_value = bare.map { |record| record[:call_id] }
end
Agent::Outcome.ok(return_value)
