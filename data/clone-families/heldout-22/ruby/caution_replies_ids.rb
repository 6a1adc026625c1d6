history = context[:conversation_history] || []
notes = []
history.each do |record|
  text = record[:content]
  next unless record[:role] == "assistant" && text.is_a?(String)

  notes << { reply_id: record[:call_id] } if text.match?(/^[ \t]*(note|warning|caution):/i)
end
notes
