history = context.get("conversation_history", [])
by_id = {r.get("call_id"): r for r in history if r.get("call_id")}
children = {}
failures = {}
for record in history:
    parent = by_id.get(record.get("parent_call_id"))
    if parent is None or not parent.get("method_name"):
        continue
    name = parent["method_name"]
    children[name] = children.get(name, 0) + 1
    if (record.get("outcome_summary") or {}).get("ok") is False:
        failures[name] = failures.get(name, 0) + 1
result = {name: round(failures.get(name, 0) / n, 3) for name, n in children.items()}
