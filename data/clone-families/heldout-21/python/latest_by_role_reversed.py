newest = {}
for entry in reversed(conversation_history):
    kind = entry.get("role")
    if kind and isinstance(entry.get("content"), str):
        newest.setdefault(kind, entry["content"])
result = newest
