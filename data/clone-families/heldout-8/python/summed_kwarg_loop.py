history = context.get("conversation_history", [])
key = kwargs.get("key", "timeout")
total = 0
for rec in history:
    value = (rec.get("kwargs") or {}).get(key)
    if isinstance(value, (int, float)):
        total += value
result = total
