history = context[:conversation_history] || []
failures = Hash.new(0)
history.each do |rec|
  goal = rec[:goal].to_s
  outcome = rec[:outcome_summary]
  next if goal.empty? || outcome.nil?
  failures[goal] += 1 if outcome[:ok] == false
end
failures
