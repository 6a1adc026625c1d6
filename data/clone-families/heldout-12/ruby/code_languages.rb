history = context[:conversation_history] || []
languages = Hash.new(0)
history.each do |rec|
  next unless rec[:role] == "assistant"
  text = rec[:content]
  next unless text.is_a?(String)
  text.each_line do |line|
    tag = line[/\A```([A-Za-z0-9]+)/, 1]
    languages[tag] += 1 if tag
  end
end
languages
