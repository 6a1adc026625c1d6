history = context.get("conversation_history", [])
pending = []
for record in history:
    if not record.get("method_name"):
        continue
    if not record.get("outcome_summary"):
        pending.append(record["call_id"])
result = pending
