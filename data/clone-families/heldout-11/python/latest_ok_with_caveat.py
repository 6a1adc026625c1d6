WARNING_WORDS = ("warn", "partial", "truncat")

history = context.get("conversation_history", [])
latest_ok = {}
for record in history:
    outcome = record.get("outcome_summary") or {}
    if outcome.get("ok") is not True:
        continue
    latest_ok[record.get("method_name") or record.get("role")] = record

flagged = []
for record in latest_ok.values():
    summary = (record["outcome_summary"].get("summary") or "").lower()
    if any(word in summary for word in WARNING_WORDS):
        flagged.append(record["call_id"])
result = flagged
