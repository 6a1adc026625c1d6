row = /^\s*\|.*\|\s*$/
history = Array(context[:conversation_history])
ids = []
unless history.empty?
  tables = history.select do |msg|
    msg.is_a?(Hash) && msg[:role] == "assistant" && msg[:content].is_a?(String) && msg[:content].match?(row)
  end
  ids = tables.map { |msg| msg[:call_id] }
end
Agent::Outcome.ok(ids)
