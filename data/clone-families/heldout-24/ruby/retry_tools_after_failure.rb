history = context.fetch(:conversation_history, nil) || []
report = []
history.each_with_index do |record, index|
  next unless record.dig(:outcome_summary, :ok) == false

  history[(index + 1)..].each do |later|
    break if later.dig(:outcome_summary, :ok) == true

    text = later[:content]
    if later[:role] == "tool" && text.is_a?(String) && text.match?(/\bretr(y|ied|ying)\b/i)
      report << record[:call_id]
      break
    end
  end
end
Agent::Outcome.ok(report)
