messages = Array(context[:conversation_history])
messages.each_with_object({ short: 0, medium: 0, long: 0 }) do |msg, sizes|
  body = msg[:content]
  next unless msg[:role] == "user" && body.is_a?(String)

  if body.length < 40
    sizes[:short] += 1
  elsif body.length < 200
    sizes[:medium] += 1
  else
    sizes[:long] += 1
  end
end
