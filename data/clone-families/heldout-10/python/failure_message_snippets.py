history = context.get("conversation_history", [])
snippets = {}
for rec in history:
    outcome = rec.get("outcome_summary") or {}
    if outcome.get("ok") is not False:
        continue
    message = (outcome.get("error_message") or "").strip()
    snippets[rec["call_id"]] = message[:40]
result = snippets
