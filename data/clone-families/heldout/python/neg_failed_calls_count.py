history = context["conversation_history"]
failed = [
    r for r in history
    if not r["outcome_summary"]["ok"]
]
result = {"failed_count": len(failed), "total": len(history)}
