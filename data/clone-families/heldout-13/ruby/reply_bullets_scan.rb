replies = (context[:conversation_history] || []).select { |r| r[:role] == "assistant" }
listy = replies.each_with_object({}) do |reply, acc|
  text = reply[:content]
  next unless text.is_a?(String)
  found = text.scan(/^[ \t]*(?:[-*]|[0-9]+\.)[ \t]/).size
  acc[reply[:call_id]] = found unless found.zero?
end
Agent::Outcome.ok(listy)
