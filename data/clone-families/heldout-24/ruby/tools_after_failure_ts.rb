report = []
history = context.fetch(:conversation_history, nil) || []
history.each_with_index do |record, index|
  next unless record.dig(:outcome_summary, :ok) == false

  tools = []
  history[(index + 1)..].each do |later|
    break if later.dig(:outcome_summary, :ok) == true

    tools << later[:call_id] if later[:role] == "tool"
  end
  report << { call_id: record[:call_id], tool_ids: tools, timestamp: record[:timestamp] }
end
Agent::Outcome.ok(report)
