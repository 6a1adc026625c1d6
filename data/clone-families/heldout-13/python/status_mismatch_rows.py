def disagrees(outcome):
    ok = outcome.get("ok")
    status = outcome.get("status")
    if not isinstance(ok, bool) or not isinstance(status, str) or not status:
        return False
    return (status == "ok") != ok


records = context.get("conversation_history") or []
result = [
    {"call_id": r.get("call_id"), "ok": r["outcome_summary"]["ok"], "status": r["outcome_summary"]["status"]}
    for r in records
    if r.get("outcome_summary") and disagrees(r["outcome_summary"])
]
