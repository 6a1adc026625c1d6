require "set"

history = context[:conversation_history] || []
left_behind = Set.new
resumed = []
active = nil
history.each do |rec|
  goal = rec[:goal]
  next if goal.to_s.empty?
  next if goal == active
  left_behind << active if active
  resumed << goal if left_behind.include?(goal) && !resumed.include?(goal)
  active = goal
end
Agent::Outcome.ok(resumed_goals: resumed, goals_touched: (left_behind | [active].compact).size)
