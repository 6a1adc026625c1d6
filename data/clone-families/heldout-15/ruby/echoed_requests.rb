history = context[:conversation_history] || []
last_user = nil
echoes = []
history.each do |rec|
  if rec[:role] == "user"
    last_user = rec
    next
  end
  next unless rec[:role] == "assistant" && last_user

  asked = last_user[:content]
  reply = rec[:content]
  next unless asked.is_a?(String) && !asked.strip.empty? && reply.is_a?(String)

  echoes << rec[:call_id] if reply.downcase.include?(asked.strip.downcase)
end
echoes
