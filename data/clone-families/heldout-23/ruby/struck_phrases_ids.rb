messages = context[:conversation_history] || []
edited = []
messages.each do |message|
  body = message[:content]
  next unless message[:role] == "assistant" && body.is_a?(String)

  found = body.scan(/~~([^~\n]+)~~/).flatten
  edited << { call_id: message[:call_id] } unless found.empty?
end
Agent::Outcome.ok(edited)
