replies = Array(context[:conversation_history])
replies.select do |reply|
  next false unless reply.is_a?(Hash)

  body = reply[:content]
  reply[:role] == "assistant" && body.is_a?(String) && !body.empty? && body.match?(/:[a-z_]+:/)
end.map { |reply| reply[:call_id] }
