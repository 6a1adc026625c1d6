history = context.get("conversation_history", [])
by_id = {r.get("call_id"): r for r in history if r.get("call_id")}
counts = {}
for record in history:
    if (record.get("outcome_summary") or {}).get("ok") is not False:
        continue
    parent = by_id.get(record.get("parent_call_id"))
    if parent is None or not parent.get("method_name"):
        continue
    counts[parent["method_name"]] = counts.get(parent["method_name"], 0) + 1
result = counts
