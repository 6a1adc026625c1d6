history = Array(context[:conversation_history])
row = /^\s*\|.*\|\s*$/
tables = history.select { |reply|
  reply[:role] == "assistant" && reply[:content].is_a?(String) && reply[:content].match?(row)
}
Agent::Outcome.ok(tables.map { |reply| { reply_id: reply[:call_id], sent_at: reply[:timestamp] } })
