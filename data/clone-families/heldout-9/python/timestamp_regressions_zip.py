history = context.get("conversation_history", [])
result = [
    cur["call_id"]
    for prev, cur in zip(history, history[1:])
    if cur["timestamp"] < prev["timestamp"]
]
