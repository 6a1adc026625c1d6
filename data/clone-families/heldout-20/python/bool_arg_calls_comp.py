history = context.get("conversation_history", [])
result = [
    {"call_id": call.get("call_id"), "method": call.get("method_name")}
    for call in history
    if call.get("method_name") and any(isinstance(value, bool) for value in call.get("args") or [])
]
