history = context[:conversation_history] || []
goals = Hash.new { |hash, key| hash[key] = [] }
history.each do |record|
  role = record[:role]
  goal = record[:goal]
  next unless role.is_a?(String) && !role.empty? && goal.is_a?(String) && !goal.empty?

  goals[role] << goal unless goals[role].include?(goal)
end
goals.transform_values(&:size)
