history = context["conversation_history"]
last_user = next((r for r in reversed(history) if r["speaker"] == "user"), None)
result = last_user["args"] if last_user else None
