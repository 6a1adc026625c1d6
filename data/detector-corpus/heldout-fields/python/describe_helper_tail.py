def describe(rec):
    status = rec.get("outcome_summary", {}).get("status", "unknown")
    return f"{rec.get('method_name')}: {status}"


history = context.get("conversation_history", [])
result = "\n".join(describe(r) for r in history[-4:])
