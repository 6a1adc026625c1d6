history = context.get("conversation_history", [])
changes = []
previous_day = None
for record in history:
    stamp = record.get("timestamp")
    if not stamp:
        continue
    day = stamp[:10]
    if previous_day is not None and day != previous_day:
        changes.append(record.get("call_id"))
    previous_day = day
result = changes
