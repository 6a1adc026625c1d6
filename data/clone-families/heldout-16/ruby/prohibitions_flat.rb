pattern = /\b(?:don['’]t|do not|never)\s+([^.!?\n]+)/i
(context[:conversation_history] || [])
  .select { |h| h[:role] == "user" && h[:content].is_a?(String) }
  .flat_map { |h| h[:content].scan(pattern).flatten.map { |rule| { from: h[:call_id], avoid: rule.strip } } }
