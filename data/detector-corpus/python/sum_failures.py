h = context["conversation_history"]
failures = sum(1 for r in h if not r["outcome_summary"].get("ok"))
result = {"failures": failures, "total": len(h)}
