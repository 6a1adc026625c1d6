calls_by_status = {}
for rec in conversation_history:
    oc = rec.get("outcome_summary")
    if oc is None:
        continue
    calls_by_status.setdefault(oc.get("status"), []).append(rec.get("call_id"))
result = calls_by_status
