history = context.get("conversation_history", [])
flagged = []
seen = []
for record in history:
    method = record.get("method_name")
    if not method:
        continue
    args = record.get("args") or []
    for value in args:
        if value in seen:
            flagged.append(record.get("call_id"))
            break
    for value in args:
        if value not in seen:
            seen.append(value)
result = flagged
