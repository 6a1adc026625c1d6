history = context.get("conversation_history") or []
pairs = []
for record in history:
    if record.get("method_name"):
        if len(record.get("args") or []) == 2:
            pairs.append(record.get("call_id"))
result = pairs
