history = context.get("conversation_history", [])
result = {}
for record in history:
    method = record.get("method_name")
    stamp = record.get("timestamp")
    if method and stamp:
        result.setdefault(method, []).append(record.get("call_id"))
