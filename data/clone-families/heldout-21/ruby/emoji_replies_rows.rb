history = Array(context[:conversation_history])
history.select { |record|
  text = record[:content]
  record[:role] == "assistant" && text.is_a?(String) && text.match?(/:[a-z_]+:/)
}.map { |record| [record[:call_id], record[:content].scan(/:[a-z_]+:/)] }
