n = kwargs.get("n", 3)
history = context.get("conversation_history", [])

user_msgs = [r["content"] for r in history if r.get("speaker") == "user"]
result = user_msgs[-n:] if n > 0 else []
