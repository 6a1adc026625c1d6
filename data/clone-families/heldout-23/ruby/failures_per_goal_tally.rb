history = context.fetch(:conversation_history, nil) || []
with_goal = history.select do |record|
  record[:goal].is_a?(String) && !record[:goal].empty?
end
failed = with_goal.select { |record| record.dig(:outcome_summary, :ok) == false }
failures = failed.map { |record| record[:goal] }.tally
Agent::Outcome.ok(failures)
