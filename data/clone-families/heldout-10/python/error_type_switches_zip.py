failures = [r for r in context["conversation_history"] if (r.get("outcome_summary") or {}).get("ok") is False]
changes = []
for before, after in zip(failures, failures[1:]):
    a = before["outcome_summary"].get("error_type")
    b = after["outcome_summary"].get("error_type")
    if a != b:
        changes.append({"call_id": after["call_id"], "from": a, "to": b})
result = changes
