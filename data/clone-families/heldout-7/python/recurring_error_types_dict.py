entries = context["conversation_history"]
seen = {}
for e in entries:
    summary = e.get("outcome_summary", {})
    if summary.get("status") != "ok":
        kind = summary.get("error_type")
        if kind:
            seen[kind] = seen.get(kind, 0) + 1

result = {kind: n for kind, n in sorted(seen.items()) if n > 1}
