history = context[:conversation_history] || []
user_idx = history.each_index.select { |i| history[i][:speaker] == "user" }
if user_idx.empty?
  result = []
else
  from = user_idx[-1]
  result = history[(from + 1)..-1].map { |rec| rec[:call_id] }
end
