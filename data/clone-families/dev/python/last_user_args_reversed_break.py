history = context.get("conversation_history") or []
recent = []
for rec in reversed(history):
    if len(recent) == 5:
        break
    if rec.get("speaker") == "user":
        recent.append(rec.get("args", []))
recent.reverse()
result = recent
