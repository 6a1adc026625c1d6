history = context.get("conversation_history", [])
truncated = []
for record in history:
    outcome = record.get("outcome_summary") or {}
    if outcome.get("ok") is not False:
        continue
    message = (outcome.get("error_message") or "").rstrip()
    if message.endswith("...") or message.endswith("\u2026"):
        truncated.append(record.get("call_id"))
result = truncated
