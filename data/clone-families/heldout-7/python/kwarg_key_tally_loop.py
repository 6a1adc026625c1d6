history = context.get("conversation_history", [])
tally = {}
for record in history:
    for key in (record.get("kwargs") or {}):
        tally[key] = tally.get(key, 0) + 1
result = tally
