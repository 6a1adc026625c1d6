history = context["conversation_history"]
seen = set()
for rec in history:
    summary = rec["outcome_summary"]
    if summary["ok"]:
        continue
    seen.add(summary["error_type"] or "Unknown")
result = sorted(seen)
