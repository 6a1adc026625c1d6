history = context[:conversation_history] || []
first_call = history.first
result = first_call ? first_call[:args] : []
