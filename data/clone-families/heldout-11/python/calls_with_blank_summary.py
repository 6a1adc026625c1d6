history = context.get("conversation_history", [])
pending = []
for record in history:
    if not record.get("method_name"):
        continue
    outcome = record.get("outcome_summary") or {}
    if outcome and not (outcome.get("summary") or "").strip():
        pending.append(record["call_id"])
result = pending
