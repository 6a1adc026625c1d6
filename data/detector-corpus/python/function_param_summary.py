def summarize(records, limit=10):
    lines = [f"{r['speaker']}: {r['method_name']}" for r in records[-limit:]]
    return "\n".join(lines)


result = summarize(context["conversation_history"])
