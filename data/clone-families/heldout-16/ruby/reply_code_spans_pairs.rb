history = context[:conversation_history] || []
history
  .select { |h| h[:role] == "assistant" && h[:content].is_a?(String) }
  .map { |h| [h[:call_id], h[:content].scan(/`([^`\n]+)`/).flatten.uniq] }
  .reject { |_id, codes| codes.empty? }
