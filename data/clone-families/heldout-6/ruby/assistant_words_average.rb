history = context[:conversation_history] || []
replies = history.select { |r| r[:role] == "assistant" }
replies.empty? ? 0 : replies.sum { |r| r[:content].to_s.split.size }.fdiv(replies.size)
