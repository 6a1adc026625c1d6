calls = context[:conversation_history] || []
user_idx = calls.each_index.select { |i| calls[i][:role] == "user" }
result = user_idx.each_with_index.map do |ui, k|
  stop = user_idx[k + 1] || calls.size
  reply = calls[(ui + 1)...stop].find { |c| c[:role] == "assistant" }
  { call_id: calls[ui][:call_id], question: calls[ui][:content], answer: reply && reply[:content] }
end
Agent::Outcome.ok(result)
