history = context[:conversation_history] || []
history.select { |r| r[:role] == "assistant" }.sum { |r| r[:content].to_s.split.size }
