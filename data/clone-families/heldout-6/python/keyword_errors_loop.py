history = context.get("conversation_history", [])
keyword = kwargs.get("keyword", "timeout").lower()
matches = []
for record in history:
    outcome = record.get("outcome_summary") or {}
    if outcome.get("ok"):
        continue
    message = outcome.get("error_message") or ""
    if keyword in message.lower():
        matches.append(record["call_id"])
result = {"keyword": keyword, "call_ids": matches}
