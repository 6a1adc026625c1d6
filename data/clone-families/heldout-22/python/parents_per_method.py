history = context.get("conversation_history") or []
parents = {}
for record in history:
    method = record.get("method_name")
    parent = record.get("parent_call_id")
    if method and parent:
        parents.setdefault(method, set()).add(parent)
result = {method: len(ids) for method, ids in parents.items()}
