hist = context.get("conversation_history") or []
result = {h["call_id"]: h["outcome_summary"].get("status") for h in hist if h.get("outcome_summary")}
