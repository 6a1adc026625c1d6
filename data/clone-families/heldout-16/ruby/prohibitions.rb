history = context[:conversation_history] || []
rules = []
history.each do |rec|
  next unless rec[:role] == "user"

  text = rec[:content]
  next unless text.is_a?(String)

  text.scan(/\b(?:don['’]t|do not|never)\s+([^.!?\n]+)/i) do |(phrase)|
    rules << [rec[:call_id], phrase.strip]
  end
end
rules
