history = context[:conversation_history] || []
last_user = nil
unless history.empty?
  last_user = history.rindex do |record|
    record[:role] == "user"
  end
end
if last_user.nil?
  []
else
  start = [last_user - 3, 0].max
  history[start...last_user].map do |record|
    record[:call_id]
  end
end
