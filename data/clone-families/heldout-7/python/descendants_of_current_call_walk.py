history = context.get("conversation_history", [])
current_id = context.get("call_id")

parent_of = {}
for record in history:
    parent_of[record.get("call_id")] = record.get("parent_call_id")

descendants = []
for record in history:
    cid = record.get("call_id")
    seen = set()
    parent = parent_of.get(cid)
    while parent is not None and parent not in seen:
        if parent == current_id:
            descendants.append(cid)
            break
        seen.add(parent)
        parent = parent_of.get(parent)

result = descendants
