history = context.get("conversation_history", [])
undated = 0
for record in history:
    if not record.get("timestamp"):
        undated += 1
result = undated
