history = context[:conversation_history] || []
last_outcome = {}
history.each do |rec|
  goal = rec[:goal].to_s
  outcome = rec[:outcome_summary]
  next if goal.empty? || outcome.nil?
  last_outcome[goal] = outcome[:ok]
end
last_outcome.select { |_goal, ok| ok == false }.keys
