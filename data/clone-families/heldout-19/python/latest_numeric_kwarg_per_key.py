history = context.get("conversation_history", [])
latest = {}
for record in history:
    kwargs = record.get("kwargs")
    if not isinstance(kwargs, dict):
        continue
    for key, value in kwargs.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        latest[key] = value
result = latest
