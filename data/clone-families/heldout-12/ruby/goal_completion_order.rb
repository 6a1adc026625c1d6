history = context[:conversation_history] || []
completed = []
history.each do |rec|
  goal = rec[:goal]
  next if goal.nil? || goal.empty?
  summary = rec[:outcome_summary]
  next unless summary.is_a?(Hash) && summary[:ok] == true
  completed << goal unless completed.include?(goal)
end
completed
