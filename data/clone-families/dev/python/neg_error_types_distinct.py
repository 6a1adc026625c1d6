history = context["conversation_history"]
failed = [r for r in history if not r["outcome_summary"]["ok"]]
result = sorted({r["outcome_summary"]["error_type"] for r in failed})
