history = context.get("conversation_history") or []
per_key = {}
for record in history:
    if not record.get("method_name"):
        continue
    options = record.get("kwargs")
    if isinstance(options, dict):
        for key, value in options.items():
            if isinstance(value, list):
                per_key[key] = per_key.get(key, 0) + 1
result = per_key
