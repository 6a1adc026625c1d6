messages = Array(context[:conversation_history])
ids = []
messages.each do |msg|
  body = msg[:content]
  ids << msg[:call_id] if msg[:role] == "assistant" && body.is_a?(String) && body.match?(/:[a-z_]+:/)
end
ids
