# conversation_history is injected by the host as a local
recent = conversation_history.last(5)
result = recent.size
