history = context.get("conversation_history", [])
filled = lambda value: isinstance(value, str) and value.strip() != ""
result = [
    {"call_id": r.get("call_id"), "goal": r["goal"]}
    for r in history
    if filled(r.get("goal")) and not filled(r.get("need"))
]
