history = context.get("conversation_history", [])
day_of = {}
for record in history:
    stamp = record.get("timestamp")
    if stamp and record.get("call_id"):
        day_of[record["call_id"]] = stamp[:10]
changes = []
for record in history:
    stamp = record.get("timestamp")
    parent = record.get("parent_call_id")
    if not stamp or not parent or parent not in day_of:
        continue
    if stamp[:10] != day_of[parent]:
        changes.append(record.get("call_id"))
result = changes
