latest = []
log = context["conversation_history"]
for entry in reversed(log):
    if entry.get("role") == "assistant" and isinstance(entry.get("content"), str):
        latest.insert(0, entry["content"])
        if len(latest) == 3:
            break
result = latest
