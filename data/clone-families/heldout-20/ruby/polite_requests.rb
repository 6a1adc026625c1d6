history = context.fetch(:conversation_history, nil) || []
history.filter_map do |msg|
  text = msg[:content]
  next unless msg[:role] == "user" && text.is_a?(String)

  [msg[:call_id], text] if text.match?(/\bplease\b/i)
end
