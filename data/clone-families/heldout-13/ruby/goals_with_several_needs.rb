history = context[:conversation_history] || []
needs_by_goal = Hash.new { |h, k| h[k] = [] }
history.each do |rec|
  need = rec[:need].to_s
  goal = rec[:goal].to_s
  next if need.empty? || goal.empty?
  needs_by_goal[goal] << need unless needs_by_goal[goal].include?(need)
end
needs_by_goal.select { |_goal, needs| needs.size > 1 }.transform_values(&:sort)
