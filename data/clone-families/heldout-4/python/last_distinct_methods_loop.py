history = context.get("conversation_history", [])

recent = []
for rec in reversed(history):
    if rec["method"] not in recent:
        recent.append(rec["method"])
    if len(recent) == 3:
        break

result = recent
