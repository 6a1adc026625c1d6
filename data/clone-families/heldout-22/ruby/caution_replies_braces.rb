messages = context[:conversation_history] || []
flagged = []
messages.each { |msg|
  body = msg[:content]
  next unless msg[:role] == "assistant" && body.is_a?(String)

  kind = body[/^[ \t]*(note|warning|caution):/i, 1]
  flagged << { call_id: msg[:call_id], label: kind.downcase } if kind
}
flagged
