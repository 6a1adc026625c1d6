history = context["conversation_history"]
by_error = {}
for rec in history:
    summary = rec["outcome_summary"]
    if summary["ok"]:
        continue
    key = summary["error_type"] or "Unknown"
    by_error[key] = by_error.get(key, 0) + 1
result = by_error
