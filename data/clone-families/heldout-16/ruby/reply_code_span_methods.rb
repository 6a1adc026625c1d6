history = context[:conversation_history] || []
methods = history.map { |rec| rec[:method_name] }.compact.reject(&:empty?).uniq
spans = {}
history.each do |rec|
  next unless rec[:role] == "assistant"

  text = rec[:content]
  next unless text.is_a?(String)

  found = text.scan(/`([^`\n]+)`/).flatten.uniq.select { |code| methods.include?(code) }
  spans[rec[:call_id]] = found unless found.empty?
end
spans
