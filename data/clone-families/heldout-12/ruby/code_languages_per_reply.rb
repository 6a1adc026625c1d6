history = context[:conversation_history] || []
languages = Hash.new(0)
history.each do |rec|
  next unless rec[:role] == "assistant"
  text = rec[:content]
  next unless text.is_a?(String)
  tags = text.each_line.map { |line| line[/\A```([A-Za-z0-9]+)/, 1] }.compact.uniq
  tags.each { |tag| languages[tag] += 1 }
end
languages
