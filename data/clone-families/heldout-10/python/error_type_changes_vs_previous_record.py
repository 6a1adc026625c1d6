history = context.get("conversation_history", [])
switches = []
for pos, rec in enumerate(history):
    outcome = rec.get("outcome_summary") or {}
    if outcome.get("ok") is not False or pos == 0:
        continue
    error_type = outcome.get("error_type")
    previous_type = (history[pos - 1].get("outcome_summary") or {}).get("error_type")
    if error_type != previous_type:
        switches.append(rec["call_id"])
result = switches
