history = context[:conversation_history] || []
latest = {}
history.each do |record|
  latest[record[:speaker]] = record[:call_id]
end
latest
