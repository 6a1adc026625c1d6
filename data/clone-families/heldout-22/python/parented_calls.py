history = context.get("conversation_history") or []
parented = []
for record in history:
    method = record.get("method_name")
    parent = record.get("parent_call_id")
    if method and parent:
        parented.append(record.get("call_id"))
result = parented
