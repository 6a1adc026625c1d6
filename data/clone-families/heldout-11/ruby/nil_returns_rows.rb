def returned_nil?(summary)
  summary.is_a?(Hash) && summary[:ok] == true && summary[:value_class] == "NilClass"
end

log = context[:conversation_history] || []
rows = log.select { |entry| returned_nil?(entry[:outcome_summary]) }.map do |entry|
  { call_id: entry[:call_id], method: entry[:method_name], at: entry[:timestamp] }
end
Agent::Outcome.ok(rows)
