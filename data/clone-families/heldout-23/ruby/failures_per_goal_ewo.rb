messages = context.fetch(:conversation_history, nil) || []
failed_per_goal = messages.each_with_object(Hash.new(0)) do |message, counts|
  objective = message[:goal]
  next unless objective.is_a?(String) && !objective.empty?

  counts[objective] += 1 if message.dig(:outcome_summary, :ok) == false
end
Agent::Outcome.ok(failed_per_goal)
