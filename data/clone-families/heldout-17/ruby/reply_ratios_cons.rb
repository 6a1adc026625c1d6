history = context[:conversation_history] || []
history.each_cons(2).filter_map do |msg, reply|
  next unless msg[:role] == "user" && reply[:role] == "assistant"

  asked = msg[:content]
  said = reply[:content]
  next unless asked.is_a?(String) && said.is_a?(String) && asked.length.positive?

  { user: msg[:call_id], reply: reply[:call_id], ratio: said.length.fdiv(asked.length) }
end
