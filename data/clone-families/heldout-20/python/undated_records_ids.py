history = context.get("conversation_history", [])
result = [
    entry.get("call_id")
    for entry in history
    if not entry.get("timestamp")
]
