history = context.get("conversation_history", [])
last_user = next((r for r in reversed(history) if r.get("role") == "user"), None)
result = last_user["content"] if last_user else None
