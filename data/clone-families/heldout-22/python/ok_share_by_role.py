history = context.get("conversation_history") or []
totals, oks = {}, {}
for record in history:
    role = record.get("role")
    ok = (record.get("outcome_summary") or {}).get("ok")
    if role and isinstance(ok, bool):
        totals[role] = totals.get(role, 0) + 1
        oks[role] = oks.get(role, 0) + (1 if ok else 0)
result = {role: round(oks[role] / totals[role], 2) for role in totals}
