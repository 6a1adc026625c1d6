history = context.get("conversation_history", [])
endings = []
for record in history:
    text = record.get("content")
    if record.get("role") == "assistant" and isinstance(text, str):
        lines = text.splitlines()
        endings.append((record.get("call_id"), lines[-1] if lines else ""))
result = endings
