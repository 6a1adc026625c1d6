WARNING_WORDS = ("warn", "partial", "truncat")

history = context.get("conversation_history", [])
flagged = []
for record in history:
    outcome = record.get("outcome_summary") or {}
    if outcome.get("ok") is not True:
        continue
    summary = (outcome.get("summary") or "").lower()
    if any(word in summary for word in WARNING_WORDS):
        flagged.append(record["call_id"])
result = flagged
