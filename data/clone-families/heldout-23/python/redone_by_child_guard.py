messages = context.get("conversation_history") or []
child_methods = {}
for msg in messages:
    if not isinstance(msg, dict):
        continue
    parent = msg.get("parent_call_id")
    if parent and msg.get("method_name"):
        child_methods.setdefault(parent, set()).add(msg["method_name"])
result = []
for msg in messages if child_methods else []:
    method = msg.get("method_name")
    failed = (msg.get("outcome_summary") or {}).get("ok") is False
    if failed and method and method in child_methods.get(msg.get("call_id"), set()):
        result.append({"call_id": msg.get("call_id"), "method": method})
