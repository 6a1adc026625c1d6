history = context.get("conversation_history", [])
seen = {}
repeats = {}
for rec in history:
    name = rec.get("method_name")
    if not name:
        continue
    key = tuple(rec.get("args") or [])
    earlier = seen.setdefault(name, set())
    repeats[name] = repeats.get(name, 0) + (1 if key in earlier else 0)
    earlier.add(key)
result = repeats
