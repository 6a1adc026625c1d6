history = context[:conversation_history] || []
user_idx = history.each_index.select { |i| history[i][:speaker] == "user" }
if user_idx.size < 2
  result = []
else
  from, to = user_idx[-2], user_idx[-1]
  result = history[(from + 1)...to].map { |rec| rec[:call_id] }
end
