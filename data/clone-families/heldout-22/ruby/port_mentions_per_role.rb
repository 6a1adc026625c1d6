history = context[:conversation_history] || []
mentions = Hash.new(0)
history.each do |record|
  text = record[:content]
  next unless text.is_a?(String)

  text.scan(/\b(?:localhost|127\.0\.0\.1):(\d{2,5})\b/).each do |(_port)|
    mentions[record[:role]] += 1
  end
end
mentions
