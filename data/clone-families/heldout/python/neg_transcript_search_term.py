history = context["conversation_history"]
term = str(context.get("memory", {}).get("search_term", "refund")).lower()
lines = [
    f"[{r['timestamp']}] {r['speaker']}: {r['method_name']}"
    for r in history
    if term in (str(r["args"]) + str(r["kwargs"])).lower()
]
result = "\n".join(lines)
