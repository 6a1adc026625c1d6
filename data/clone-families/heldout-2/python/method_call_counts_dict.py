history = conversation_history
counts = {}
for record in history:
    name = record.get("method_name")
    if name is None:
        continue
    counts[name] = counts.get(name, 0) + 1
result = counts
