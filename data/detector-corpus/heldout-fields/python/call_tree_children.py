history = context.get("conversation_history", [])
children = {}
for r in history:
    children.setdefault(r.get("parent_call_id"), []).append(r["call_id"])
max_depth = max((r.get("depth", 0) for r in history), default=0)
result = {"roots": children.get(None, []), "max_depth": max_depth}
