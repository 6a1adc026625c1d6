history = context.fetch(:conversation_history, nil) || []
failures = Hash.new(0)
history.each do |record|
  goal = record[:goal]
  next unless goal.is_a?(String) && !goal.empty?

  failures[goal] += 1 if record.dig(:outcome_summary, :ok) == false
end
Agent::Outcome.ok(failures)
