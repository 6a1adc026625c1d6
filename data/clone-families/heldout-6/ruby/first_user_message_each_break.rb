first = nil
(context[:conversation_history] || []).each do |entry|
  next unless entry[:role] == "user"
  first = { content: entry[:content], at: entry[:timestamp], call_id: entry[:call_id] }
  break
end
first
