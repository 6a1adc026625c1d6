note = "conversation_history is empty for new sessions"
context[:notes] = (context[:notes] || []) + [note]
result = context[:notes].size
