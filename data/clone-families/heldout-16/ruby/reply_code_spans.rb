history = context[:conversation_history] || []
spans = {}
history.each do |rec|
  next unless rec[:role] == "assistant"

  text = rec[:content]
  next unless text.is_a?(String)

  found = text.scan(/`([^`\n]+)`/).flatten.uniq
  spans[rec[:call_id]] = found unless found.empty?
end
spans
