history = context.get("conversation_history") or []
parents = {}
for record in history:
    if not isinstance(record, dict):
        continue
    parent = record.get("parent_call_id")
    method = record.get("method_name")
    if not method or parent in (None, ""):
        continue
    parents.setdefault(method, set()).add(parent)
result = {method: len(ids) for method, ids in parents.items()} if parents else {}
