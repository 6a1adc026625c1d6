history = context["conversation_history"]
recent_errors = [
    r["outcome_summary"]["error_type"] for r in history[-5:] if not r["outcome_summary"]["ok"]
]
total_tool = sum(1 for r in history if r["speaker"] == "tool")
result = {"recent_errors": recent_errors, "tool_calls": total_tool}
