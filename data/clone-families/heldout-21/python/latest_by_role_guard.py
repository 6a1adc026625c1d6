newest = {}
entries = conversation_history or []
for entry in entries:
    if not isinstance(entry, dict):
        continue
    role = entry.get("role")
    if role and isinstance(entry.get("content"), str):
        newest[role] = entry["content"]
result = newest
