history = context[:conversation_history] || []
last_user = history.rindex { |record| record[:role] == "user" }
if last_user.nil?
  []
else
  start = [last_user - 3, 0].max
  history[start...last_user].map { |record| { id: record[:call_id], role: record[:role], text: record[:content] } }
end
