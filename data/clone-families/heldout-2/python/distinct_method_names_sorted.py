history = conversation_history
seen = set()
for record in history:
    name = record.get("method_name")
    if name is None:
        continue
    seen.add(name)
result = sorted(seen)
