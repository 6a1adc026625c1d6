history = context[:conversation_history] || []
seen = {}
history.each do |step|
  need, goal = step.values_at(:need, :goal)
  next if need.to_s.empty? || goal.to_s.empty?
  seen[need] ||= []
  seen[need] |= [goal]
end
lines = seen.filter_map do |need, goals|
  "need '#{need}' came up under #{goals.size} goals: #{goals.sort.join(', ')}" if goals.size > 1
end
lines.empty? ? "every need belongs to a single goal" : lines.join("\n")
