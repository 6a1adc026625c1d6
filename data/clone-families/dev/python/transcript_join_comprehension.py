history = context["conversation_history"]
lines = [
    f"{r['timestamp']} {r['speaker']}.{r['method_name']} -> {r['outcome_summary']['status']}"
    for r in history
]
result = "\n".join(lines)
