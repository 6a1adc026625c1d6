history = context.get("conversation_history", [])
result = []
for call in history:
    method = call.get("method_name")
    if not method:
        continue
    args = call.get("args") or []
    if any(isinstance(arg, (list, dict)) and not arg for arg in args):
        result.append({"call_id": call.get("call_id"), "method": method})
