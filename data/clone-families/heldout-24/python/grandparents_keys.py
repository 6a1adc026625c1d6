history = context.get("conversation_history", [])
by_id = {record.get("call_id"): record for record in history}
links = []
for record in history:
    parent = by_id.get(record.get("parent_call_id")) if record.get("parent_call_id") else None
    if parent and parent.get("parent_call_id"):
        links.append({"record": record.get("call_id"), "grandparent_id": parent.get("parent_call_id"), "parent": record.get("parent_call_id")})
links
