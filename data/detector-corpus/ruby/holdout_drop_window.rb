history = context[:conversation_history] || []
older = history[0...-3]
result = older.length
