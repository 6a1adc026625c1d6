history = context.get("conversation_history", [])
seen = set()
repeats = 0
for record in history:
    method = record.get("method_name")
    if not method:
        continue
    key = (method, tuple(record.get("args") or []))
    if key in seen:
        repeats += 1
    else:
        seen.add(key)
result = repeats
