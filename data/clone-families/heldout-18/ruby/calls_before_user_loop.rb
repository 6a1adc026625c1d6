history = context[:conversation_history] || []
calls = []
idx = 0
while idx < history.size && history[idx][:role] != "user"
  name = history[idx][:method_name]
  calls << { call_id: history[idx][:call_id], method: name } unless name.to_s.empty?
  idx += 1
end
calls
