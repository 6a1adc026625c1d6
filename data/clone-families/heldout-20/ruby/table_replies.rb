history = Array(context[:conversation_history])
row = /^\s*\|.*\|\s*$/
tables = history.select do |reply|
  reply[:role] == "assistant" && reply[:content].is_a?(String) && reply[:content].match?(row)
end
Agent::Outcome.ok(tables.map { |reply| reply[:call_id] })
