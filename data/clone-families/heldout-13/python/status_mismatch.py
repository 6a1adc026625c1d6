history = context.get("conversation_history", [])
mismatched = []
for rec in history:
    outcome = rec.get("outcome_summary") or {}
    ok = outcome.get("ok")
    status = outcome.get("status")
    if ok not in (True, False) or not status:
        continue
    if (ok and status != "ok") or (not ok and status == "ok"):
        mismatched.append(rec.get("call_id"))
result = mismatched
