# Step 4: Implement
# Role profile: history-style query, does not touch :memory
history_records = context[:conversation_history] || []

failures = history_records.select { |record| record.dig(:outcome_summary, :ok) == false || record.dig(:outcome_summary, :ok).nil? }
text = failures.map { |record|
  "[#{record[:timestamp]}] #{record[:method_name]} failed (#{record.dig(:outcome_summary, :error_type)})"
}.join("\n")

result = text
Agent::Outcome.ok(result)
