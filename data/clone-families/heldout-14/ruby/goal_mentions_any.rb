history = context[:conversation_history] || []
goals = history.map { |rec| rec[:goal].to_s }.reject(&:empty?).uniq
mentions = []
history.each do |rec|
  next unless rec[:role] == "assistant"

  text = rec[:content].to_s.downcase
  next if text.empty?

  mentions << rec[:call_id] if goals.any? { |goal| text.include?(goal.downcase) }
end
mentions
