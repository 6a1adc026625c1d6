history = context.get("conversation_history") or []
result = []
child_methods = {}
for record in history:
    parent = record.get("parent_call_id")
    if parent and record.get("method_name"):
        child_methods.setdefault(parent, set()).add(record["method_name"])
for record in history:
    method = record.get("method_name")
    failed = (record.get("outcome_summary") or {}).get("ok") is False
    if failed and method and method in child_methods.get(record.get("call_id"), set()):
        result.append({"failed": record.get("call_id"), "retried_method": method})
