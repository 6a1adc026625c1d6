history = context[:conversation_history] || []
struck = []
history.each do |record|
  text = record[:content]
  next unless record[:role] == "assistant" && text.is_a?(String)

  phrases = text.scan(/~~([^~\n]+)~~/).flatten
  struck << { call_id: record[:call_id], phrases: phrases } unless phrases.empty?
end
Agent::Outcome.ok(struck)
