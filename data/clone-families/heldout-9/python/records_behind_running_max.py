history = context.get("conversation_history", [])
latest = None
result = []
for cur in history:
    if latest is not None and cur["timestamp"] < latest:
        result.append(cur["call_id"])
    if latest is None or cur["timestamp"] > latest:
        latest = cur["timestamp"]
