history = context.get("conversation_history", [])
flagged = []
for record in history:
    method = record.get("method_name")
    if not method:
        continue
    args = record.get("args") or []
    seen = []
    for value in args:
        if value in seen:
            flagged.append(record.get("call_id"))
            break
        seen.append(value)
result = flagged
