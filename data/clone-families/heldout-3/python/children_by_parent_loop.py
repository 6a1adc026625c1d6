children = {}
for rec in conversation_history:
    parent = rec.get("parent_call_id")
    if parent is not None:
        children.setdefault(parent, []).append(rec.get("method_name"))
result = children
