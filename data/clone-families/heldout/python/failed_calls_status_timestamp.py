history = context.get("conversation_history") or []
result = [
    {
        "call_id": rec["call_id"],
        "method": rec["method_name"],
        "error": rec["outcome_summary"].get("error_type"),
        "at": rec["timestamp"],
    }
    for rec in history
    if rec["outcome_summary"]["status"] == "error"
]
