history = context.fetch(:conversation_history, nil) || []
opening = history.select do |msg|
  msg[:role] == "user"
end
opening.first(3).map { |msg| [msg[:call_id], msg[:content]] }
