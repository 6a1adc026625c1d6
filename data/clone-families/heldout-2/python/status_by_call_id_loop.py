status_by_call = {}
for rec in conversation_history:
    oc = rec.get("outcome_summary")
    if oc is None:
        continue
    status_by_call[rec.get("call_id")] = oc.get("status")
result = status_by_call
