history = context[:conversation_history] || []
struck = []
history.each do |record|
  next unless record.is_a?(Hash)

  text = record[:content]
  next unless record[:role] == "assistant" && text.is_a?(String)

  phrases = text.scan(/~~([^~\n]+)~~/).flatten
  struck << { reply_id: record[:call_id], struck_text: phrases } unless phrases.empty?
end
Agent::Outcome.ok(struck)
