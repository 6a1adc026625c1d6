history = context.fetch(:conversation_history, nil) || []
report = []
history.each_with_index do |record, index|
  next unless record.dig(:outcome_summary, :ok) == false

  window = history[(index + 1)..].take_while { |later| later.dig(:outcome_summary, :ok) != true }
  tools = window.select { |later| later[:role] == "tool" }.map { |later| later[:call_id] }
  report << { call_id: record[:call_id], tool_ids: tools, timestamp: record[:timestamp] }
end
Agent::Outcome.ok(report)
