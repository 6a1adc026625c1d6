history = context.get("conversation_history", [])
known_ids = {record.get("call_id") for record in history}
dangling = []
for record in history:
    parent = record.get("parent_call_id")
    if parent and parent not in known_ids:
        dangling.append(record.get("call_id"))
result = dangling
