BULLET = /\A\s*(?:[-*]|\d+\.)\s/

history = context[:conversation_history] || []
counts = {}
history.each do |rec|
  next unless rec[:role] == "assistant" && rec[:content].is_a?(String)
  n = rec[:content].lines.count { |line| line.match?(BULLET) }
  counts[rec[:call_id]] = n if n > 0
end
counts
