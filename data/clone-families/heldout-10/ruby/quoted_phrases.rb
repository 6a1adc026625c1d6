history = context[:conversation_history] || []
phrases = []
history.each do |rec|
  next unless rec[:role] == "user"
  rec[:content].to_s.scan(/"([^"]+)"/) do |(phrase)|
    phrases << phrase unless phrases.include?(phrase)
  end
end
phrases
