entries = context["conversation_history"] or []
methods = {e["method"] for e in entries}
result = ", ".join(
    sorted(
        m
        for m in methods
        if not any(e["outcome_summary"]["ok"] for e in entries if e["method"] == m)
    )
) or "every method succeeded at least once"
