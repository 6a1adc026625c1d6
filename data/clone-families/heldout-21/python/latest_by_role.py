latest = {}
for record in conversation_history:
    role = record.get("role")
    if role and isinstance(record.get("content"), str):
        latest[role] = record["content"]
result = latest
