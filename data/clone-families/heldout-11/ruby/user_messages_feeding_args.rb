history = context[:conversation_history] || []
user_texts = {}
feeders = []
history.each do |rec|
  if rec[:role] == "user"
    user_texts[rec[:call_id]] = rec[:content].to_s
    next
  end
  next if rec[:method_name].to_s.empty?
  strings = (rec[:args] || []).select { |a| a.is_a?(String) && !a.empty? }
  user_texts.each do |user_id, text|
    feeders << user_id if strings.any? { |s| text.include?(s) } && !feeders.include?(user_id)
  end
end
feeders
