history = context.get("conversation_history", [])
last_ok = next((r for r in reversed(history) if r["outcome_summary"].get("ok")), None)
result = last_ok["outcome_summary"]["value_class"] if last_ok else None
