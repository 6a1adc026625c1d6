history = context.get("conversation_history", [])
last = history[-1] if history else None
result = bool(last and (last.get("outcome_summary") or {}).get("ok"))
