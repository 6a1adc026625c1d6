history = context[:conversation_history] || []
segments = []
history.each do |rec|
  goal = rec[:goal].to_s
  next if goal.empty?
  segments << goal unless segments.last == goal
end
segments.select { |goal| segments.count(goal) > 1 }.uniq
