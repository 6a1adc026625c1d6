history = context[:conversation_history] || []
i = history.size - 1
i -= 1 while i >= 0 && history[i][:speaker] != "user"
result = i >= 0 ? history[i][:args] : nil
