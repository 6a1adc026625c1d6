# Role profile constraint: accumulator_slot = :memory (shared across all methods)
context[:memory] = (context[:memory] || 0).to_f

past = (context[:conversation_history] || [])
  .filter { |r| r[:speaker] == "calculator" && r.dig(:outcome_summary, :ok) }
  .reject { |r| r[:method_name] == "history" }

summary = past.map { |r| { method: r[:method_name], args: r[:args], result: r[:outcome_summary][:value_class] } }

result = {
  operations: summary,
  count: summary.size,
  current_memory: context[:memory]
}
Agent::Outcome.ok(result)
