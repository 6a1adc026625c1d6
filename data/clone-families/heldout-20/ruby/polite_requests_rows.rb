history = context.fetch(:conversation_history, nil) || []
history.filter_map do |msg|
  next unless msg.is_a?(Hash)

  text = msg[:content]
  next unless msg[:role] == "user" && text.is_a?(String)

  { message_id: msg[:call_id], request: text } if text.match?(/\bplease\b/i)
end
