msgs = context.fetch(:conversation_history, nil) || []
grateful = ->(text) { text.is_a?(String) && !(text =~ /\b(thanks|thank you|thx)\b/i).nil? }
pairs = msgs.zip(msgs.drop(1))
pairs.select { |cur, nxt| nxt && cur[:role] == "assistant" && nxt[:role] == "user" && grateful.call(nxt[:content]) }
     .map { |cur, nxt| { reply: cur[:call_id], thanked_by: nxt[:call_id] } }
