n = kwargs.get("n", 3)
user_msgs = [r.get("content") for r in conversation_history if r.get("speaker") == "user"]
result = user_msgs[:n] if n > 0 else []
