history = context.get("conversation_history", [])
undated = []
for record in history:
    if not record.get("timestamp"):
        undated.append((record.get("call_id"), record.get("role")))
result = undated
