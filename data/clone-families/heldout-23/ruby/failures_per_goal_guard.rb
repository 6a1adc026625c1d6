entries = context.fetch(:conversation_history, nil) || []
failed_by_goal = Hash.new(0)
entries.each do |entry|
  next unless entry.is_a?(Hash)

  goal = entry[:goal]
  next unless goal.is_a?(String) && !goal.empty?
  next unless entry[:outcome_summary].is_a?(Hash)

  failed_by_goal[goal] += 1 if entry.dig(:outcome_summary, :ok) == false
end
Agent::Outcome.ok(failed_by_goal)
