history = context[:conversation_history] || []
previous_role = nil
ids = []
history.each do |record|
  ids << record[:call_id] if record[:role] == "user" && previous_role == "user"
  previous_role = record[:role]
end
ids
