history = context[:conversation_history] || []
first = {}
history.each do |record|
  first[record[:speaker]] ||= record[:call_id]
end
first
