history = context.get("conversation_history", [])
result = [
    f"{step.get('call_id')}: boolean argument"
    for step in history
    if step.get("method_name") and any(isinstance(x, bool) for x in step.get("args") or [])
]
