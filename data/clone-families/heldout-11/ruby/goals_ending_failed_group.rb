records = context[:conversation_history] || []
judged = records.select { |r| r[:goal] && !r[:goal].empty? && r[:outcome_summary] }
by_goal = judged.group_by { |r| r[:goal] }
stuck = by_goal.select { |_goal, recs| recs.last[:outcome_summary][:ok] == false }
stuck.map do |goal, recs|
  last = recs.last
  { goal: goal, last_call: last[:call_id], error: last[:outcome_summary][:error_type] }
end
