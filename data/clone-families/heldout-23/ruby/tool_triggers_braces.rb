messages = Array(context[:conversation_history])
latest_request = nil
pairs = []
messages.each { |message|
  case message[:role]
  when "user" then latest_request = message
  when "tool" then pairs << { tool_output: message[:call_id], user_request: latest_request[:call_id] } if latest_request
  end
}
pairs
