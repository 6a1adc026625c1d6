history = context[:conversation_history] || []
done = []
late = []
history.each do |rec|
  goal = rec[:goal].to_s
  next if goal.empty?
  late << rec[:call_id] if done.include?(goal) && !rec[:method_name].to_s.empty?
  done << goal if (rec[:outcome_summary] || {})[:ok] == true && !done.include?(goal)
end
late
