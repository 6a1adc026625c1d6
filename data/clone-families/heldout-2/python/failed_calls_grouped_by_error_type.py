groups = {}
for rec in conversation_history:
    oc = rec.get("outcome_summary")
    if not oc or oc.get("ok") is not False:
        continue
    etype = oc.get("error_type") or "unknown"
    groups.setdefault(etype, []).append(rec.get("call_id"))
result = groups
