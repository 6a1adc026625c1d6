history = context.get("conversation_history", [])
latest = None
for record in history:
    if record.get("role") == "user":
        text = (record.get("content") or "").strip()
        if text.endswith("?"):
            latest = text
result = latest
