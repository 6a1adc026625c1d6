statuses = {}
for rec in conversation_history:
    role = rec.get("role")
    status = (rec.get("outcome_summary") or {}).get("status")
    statuses.setdefault(role, set())
    statuses[role].add(status)
result = {role: sorted(map(str, seen)) for role, seen in statuses.items()}
