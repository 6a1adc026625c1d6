history = context[:conversation_history] || []
phrases = Hash.new(0)
history.each do |rec|
  next unless rec[:role] == "user"
  rec[:content].to_s.scan(/"([^"]+)"/) do |(phrase)|
    phrases[phrase] += 1
  end
end
phrases
