history = context[:conversation_history] || []
user_texts = []
grounded = []
history.each do |rec|
  if rec[:role] == "user"
    user_texts << rec[:content].to_s
    next
  end
  next if rec[:method_name].to_s.empty?
  strings = (rec[:args] || []).select { |a| a.is_a?(String) && !a.empty? }
  grounded << rec[:call_id] if strings.any? { |s| user_texts.any? { |t| t.include?(s) } }
end
grounded
