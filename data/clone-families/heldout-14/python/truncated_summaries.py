history = context.get("conversation_history", [])
truncated = []
for record in history:
    outcome = record.get("outcome_summary") or {}
    if outcome.get("ok") is not True:
        continue
    summary = (outcome.get("summary") or "").rstrip()
    if summary.endswith("...") or summary.endswith("\u2026"):
        truncated.append(record.get("call_id"))
result = truncated
