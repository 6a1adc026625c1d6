history = context[:conversation_history] || []
counts = []
history.each do |record|
  text = record[:content]
  next unless record[:role] == "user" && text.is_a?(String)

  counts << { call_id: record[:call_id], lines: text.lines.size }
end
counts
