groups = {}
for rec in conversation_history:
    oc = rec.get("outcome_summary")
    if not oc or oc.get("ok") is not False:
        continue
    etype = oc.get("error_type") or "unknown"
    groups[etype] = groups.get(etype, 0) + 1
result = groups
