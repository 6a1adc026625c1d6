calls = []
history = context.get("conversation_history") or []
for record in history:
    if not record.get("method_name"):
        continue
    options = record.get("kwargs")
    if isinstance(options, dict) and list(filter(lambda value: isinstance(value, list), options.values())):
        calls.append(record.get("call_id"))
result = calls
