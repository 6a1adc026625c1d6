history = context[:conversation_history] || []
notes = history.filter_map do |record|
  text = record[:content]
  next unless record.is_a?(Hash) && record[:role] == "assistant" && text.is_a?(String)

  label = text[/^[ \t]*(note|warning|caution):/i, 1]
  { call_id: record[:call_id], label: label.downcase } if label
end
notes
