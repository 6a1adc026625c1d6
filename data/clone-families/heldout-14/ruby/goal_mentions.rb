history = context[:conversation_history] || []
mentions = []
history.each do |rec|
  next unless rec[:role] == "assistant"

  goal = rec[:goal].to_s
  next if goal.empty?

  mentions << rec[:call_id] if rec[:content].to_s.downcase.include?(goal.downcase)
end
mentions
