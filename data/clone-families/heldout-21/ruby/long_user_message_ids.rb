history = Array(context[:conversation_history])
long_ids = []
history.each do |record|
  text = record[:content]
  next unless record[:role] == "user" && text.is_a?(String)

  long_ids << record[:call_id] if text.length >= 200
end
long_ids
