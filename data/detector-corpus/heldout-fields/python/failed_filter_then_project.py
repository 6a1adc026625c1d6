history = context.get("conversation_history", [])
failed = [r for r in history if not r["outcome_summary"]["ok"]]
result = [
    {"call_id": r["call_id"], "error": r["outcome_summary"].get("error_message")} for r in failed
]
