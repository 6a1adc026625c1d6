history = context["conversation_history"]
first_user = [r["content"] for r in history[:5] if r.get("role") == "user"]
result = first_user[0] if first_user else ""
