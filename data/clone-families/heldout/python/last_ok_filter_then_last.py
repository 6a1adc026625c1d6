history = context["conversation_history"]
successes = [h for h in history if h["outcome_summary"]["ok"]]
if successes:
    latest = successes[-1]
    result = {"call_id": latest["call_id"], "value_class": latest["outcome_summary"]["value_class"]}
else:
    result = None
