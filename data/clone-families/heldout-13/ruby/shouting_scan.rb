messages = (context[:conversation_history] || []).select { |m| m[:role] == "user" }
shouted = messages.select do |m|
  body = m[:content].to_s
  body.scan(/[A-Z]/).size >= 3 && body !~ /[a-z]/
end
Agent::Outcome.ok(shouted: shouted.map { |m| m[:call_id] }, total_user_messages: messages.size)
