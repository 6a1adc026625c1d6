hist = context["conversation_history"]
errors = list(filter(lambda r: not r["outcome_summary"].get("ok", True), hist))
result = list(map(lambda r: r["call_id"], errors))
