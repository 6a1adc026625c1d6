counts = {}
for rec in conversation_history:
    role = rec.get("role")
    status = (rec.get("outcome_summary") or {}).get("status")
    counts.setdefault(role, {})
    counts[role][status] = counts[role].get(status, 0) + 1
result = counts
