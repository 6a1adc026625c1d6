history = context.get("conversation_history") or []
calls = []
for record in history:
    if not record.get("method_name"):
        continue
    options = record.get("kwargs")
    if isinstance(options, dict) and any(isinstance(value, list) for value in options.values()):
        calls.append(record.get("call_id"))
result = calls
