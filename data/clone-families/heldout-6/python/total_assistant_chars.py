history = context.get("conversation_history", [])
result = sum(len(r.get("content") or "") for r in history if r.get("role") == "assistant")
