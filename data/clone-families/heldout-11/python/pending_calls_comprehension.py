calls = [r for r in context["conversation_history"] if r.get("method_name")]
result = [c["call_id"] for c in calls if c.get("outcome_summary") in (None, {})]
