history = Array(context[:conversation_history])
history.select do |record|
  text = record[:content]
  record[:role] == "assistant" && text.is_a?(String)
end.map { |record| [record[:call_id], record[:content].split.last] }
