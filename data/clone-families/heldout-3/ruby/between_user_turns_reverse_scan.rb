entries = context[:conversation_history] || []
between = []
user_seen = 0
entries.reverse_each do |e|
  if e[:speaker] == "user"
    user_seen += 1
    break if user_seen == 2
    next
  end
  between.unshift(e) if user_seen == 1
end
result = user_seen == 2 ? between.map { |e| e[:call_id] } : []
