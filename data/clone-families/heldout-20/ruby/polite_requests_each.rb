history = context.fetch(:conversation_history, nil) || []
asks = []
history.each do |message|
  body = message[:content]
  next unless message[:role] == "user" && body.is_a?(String)

  asks << [message[:call_id], body] if body.match?(/\bplease\b/i)
end
asks
