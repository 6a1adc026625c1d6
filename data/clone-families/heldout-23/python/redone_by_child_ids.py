records = context.get("conversation_history") or []
methods_below = {}
for item in records:
    parent = item.get("parent_call_id")
    if parent and item.get("method_name"):
        methods_below.setdefault(parent, set()).add(item["method_name"])
result = []
for item in records:
    name = item.get("method_name")
    failed = (item.get("outcome_summary") or {}).get("ok") is False
    if failed and name and name in methods_below.get(item.get("call_id"), set()):
        result.append({"failed_call": item.get("call_id")})
