history = context["conversation_history"]
failed = [
    {"call_id": r["call_id"], "method": r["method_name"], "error": r["outcome_summary"]["error_type"]}
    for r in history
    if not r["outcome_summary"]["ok"]
]
result = failed
