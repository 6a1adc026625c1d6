history = context.get("conversation_history", [])
switches = []
previous_type = None
seen_failure = False
for rec in history:
    outcome = rec.get("outcome_summary") or {}
    if outcome.get("ok") is not False:
        continue
    error_type = outcome.get("error_type")
    if seen_failure and error_type != previous_type:
        switches.append(rec["call_id"])
    previous_type = error_type
    seen_failure = True
result = switches
