history = context["conversation_history"]
next_roles = []
for idx in range(len(history) - 1):
    if (history[idx].get("outcome_summary") or {}).get("ok") is False:
        role = history[idx + 1].get("role")
        if isinstance(role, str) and role != "":
            next_roles.append(role)
total = len(next_roles)
result = {
    "failures_followed": total,
    "share_by_role": {r: round(100 * next_roles.count(r) / total, 1) for r in sorted(set(next_roles))},
}
