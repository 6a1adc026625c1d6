history = context[:conversation_history] || []
met_at = {}
lines = []
history.each do |h|
  goal = h[:goal]
  next if goal.to_s == ""
  if met_at[goal] && h[:method_name].to_s != ""
    lines << "#{h[:call_id]} #{h[:method_name]} (goal already met at #{met_at[goal]}: #{goal})"
  end
  met_at[goal] ||= h[:call_id] if (h[:outcome_summary] || {})[:ok] == true
end
lines.empty? ? "no work after a goal was met" : lines.join("\n")
