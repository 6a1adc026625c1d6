history = context.fetch(:conversation_history, nil) || []
failed_ids = {}
history.each do |record|
  goal = record[:goal]
  next unless goal.is_a?(String) && !goal.empty?

  (failed_ids[goal] ||= []) << record[:call_id] if record.dig(:outcome_summary, :ok) == false
end
Agent::Outcome.ok(failed_ids)
