log = context[:conversation_history] || []
user_turns = log.select { |turn| turn[:role] == "user" }
opening = user_turns.first
if opening
  "First request (#{opening[:timestamp]}): #{opening[:content]}"
else
  "No user message yet"
end
