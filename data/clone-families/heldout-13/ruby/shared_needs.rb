history = context[:conversation_history] || []
goals_by_need = Hash.new { |h, k| h[k] = [] }
history.each do |rec|
  need = rec[:need].to_s
  goal = rec[:goal].to_s
  next if need.empty? || goal.empty?
  goals_by_need[need] << goal unless goals_by_need[need].include?(goal)
end
goals_by_need.select { |_need, goals| goals.size > 1 }.transform_values(&:sort)
