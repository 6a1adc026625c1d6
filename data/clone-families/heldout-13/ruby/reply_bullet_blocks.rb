BULLET = /\A\s*(?:[-*]|\d+\.)\s/

history = context[:conversation_history] || []
counts = {}
history.each do |rec|
  next unless rec[:role] == "assistant" && rec[:content].is_a?(String)
  n = 0
  inside = false
  rec[:content].lines.each do |line|
    bullet = line.match?(BULLET)
    n += 1 if bullet && !inside
    inside = bullet
  end
  counts[rec[:call_id]] = n if n > 0
end
counts
