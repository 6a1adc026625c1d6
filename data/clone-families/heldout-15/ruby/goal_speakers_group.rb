records = context.fetch(:conversation_history, nil) || []
with_goal = records.select { |r| !r[:goal].to_s.empty? && !r[:speaker].to_s.empty? }
by_goal = with_goal.group_by { |r| r[:goal] }.transform_values { |rs| rs.map { |r| r[:speaker] }.uniq.sort }
Agent::Outcome.ok(by_goal)
