history = context[:conversation_history] || []
first_seen = {}
history.each do |rec|
  first_seen[rec[:speaker]] ||= rec[:timestamp]
end
result = first_seen
