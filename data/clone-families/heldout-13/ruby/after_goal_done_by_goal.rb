require "set"

history = context[:conversation_history] || []
completed = Set.new
after_completion = Hash.new { |h, k| h[k] = [] }
history.each do |step|
  goal = step[:goal]
  next unless goal.is_a?(String) && !goal.empty?
  if completed.include?(goal) && step[:method_name].is_a?(String) && !step[:method_name].empty?
    after_completion[goal] << step[:call_id]
  end
  status = step[:outcome_summary]
  completed.add(goal) if status.is_a?(Hash) && status[:ok] == true
end
after_completion
