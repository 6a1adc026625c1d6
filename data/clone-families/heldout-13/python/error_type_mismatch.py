history = context.get("conversation_history", [])
mismatched = []
for rec in history:
    outcome = rec.get("outcome_summary") or {}
    ok = outcome.get("ok")
    error_type = outcome.get("error_type")
    if ok not in (True, False):
        continue
    if (ok and error_type) or (not ok and not error_type):
        mismatched.append(rec.get("call_id"))
result = mismatched
