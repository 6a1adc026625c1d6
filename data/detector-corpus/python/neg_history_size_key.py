size = context.get("conversation_history_size", 0)
result = "long session" if size > 20 else "short session"
