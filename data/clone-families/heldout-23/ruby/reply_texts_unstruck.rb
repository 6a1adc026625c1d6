history = context[:conversation_history] || []
texts = []
history.each do |record|
  text = record[:content]
  next unless record[:role] == "assistant" && text.is_a?(String)

  texts << { call_id: record[:call_id], text: text.delete("~").strip }
end
Agent::Outcome.ok(texts)
