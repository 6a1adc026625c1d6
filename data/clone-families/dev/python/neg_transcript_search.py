term = str(kwargs.get("query", "")).lower()
history = context["conversation_history"]
lines = [
    f"{r['timestamp']} {r['speaker']}.{r['method_name']} -> {r['outcome_summary']['status']}"
    for r in history
    if term in r["method_name"].lower() or term in str(r["args"]).lower()
]
result = "\n".join(lines)
