history = context[:conversation_history] || []
previous_text = nil
ids = []
history.each do |record|
  next unless record[:role] == "user"

  ids << record[:call_id] if !previous_text.nil? && record[:content] == previous_text
  previous_text = record[:content]
end
ids
