history = context.get("conversation_history") or []
children = {}
for record in history:
    parent = record.get("parent_call_id")
    if parent and record.get("method_name"):
        children.setdefault(parent, []).append(record["method_name"])
result = []
for record in history:
    if (record.get("outcome_summary") or {}).get("ok") is False:
        result.append({"call_id": record.get("call_id"), "children": children.get(record.get("call_id"), [])})
