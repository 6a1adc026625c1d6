history = context[:conversation_history] || []
last_seen = {}
history.each do |rec|
  last_seen[rec[:speaker]] = rec[:timestamp]
end
result = last_seen
