history = context[:conversation_history] || []
notes = []
history.each do |record|
  text = record[:content]
  next unless record[:role] == "assistant" && text.is_a?(String)

  label = text[/^[ \t]*(note|warning|caution):/i, 1]
  notes << { call_id: record[:call_id], label: label.downcase } if label
end
notes
