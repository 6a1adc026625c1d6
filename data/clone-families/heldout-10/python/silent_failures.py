history = context.get("conversation_history", [])
silent = []
for rec in history:
    outcome = rec.get("outcome_summary") or {}
    if outcome.get("ok") is not False:
        continue
    message = (outcome.get("error_message") or "").strip()
    if not message:
        silent.append(rec["call_id"])
result = silent
