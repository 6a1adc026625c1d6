entries = context.fetch(:conversation_history, nil) || []
rows = []
entries.each_with_index do |entry, pos|
  next unless entry.dig(:outcome_summary, :ok) == false

  outputs = []
  entries[(pos + 1)..].each do |nxt|
    break if nxt.dig(:outcome_summary, :ok) == true

    outputs << nxt[:call_id] if nxt[:role] == "tool"
  end
  rows << { failure: entry[:call_id], tool_outputs: outputs }
end
Agent::Outcome.ok(rows)
