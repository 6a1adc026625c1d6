history = context[:conversation_history] || []
asked_so_far = []
echoes = []
history.each do |rec|
  if rec[:role] == "user"
    asked = rec[:content]
    asked_so_far << asked.strip.downcase if asked.is_a?(String) && !asked.strip.empty?
    next
  end
  next unless rec[:role] == "assistant"

  reply = rec[:content]
  next unless reply.is_a?(String)

  echoes << rec[:call_id] if asked_so_far.any? { |asked| reply.downcase.include?(asked) }
end
echoes
