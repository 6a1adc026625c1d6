history = context.get("conversation_history", [])
known = {record["call_id"] for record in history}
orphans = []
for record in history:
    parent = record.get("parent_call_id")
    if parent and parent not in known:
        orphans.append(record["call_id"])
result = orphans
