history = context.get("conversation_history", [])
roots = []
for record in history:
    if not record.get("parent_call_id"):
        roots.append(record["call_id"])
result = roots
