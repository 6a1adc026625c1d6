history = context[:conversation_history] || []
mentions = history.select { |rec| rec[:content].is_a?(String) && rec[:content].match?(/\b(fail\w*|error)\b/i) }
window = []
unless mentions.empty?
  window = mentions.map { |rec| [rec[:call_id], rec[:content]] }
end
window
