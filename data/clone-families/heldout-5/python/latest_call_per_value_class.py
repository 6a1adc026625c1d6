history = context.get("conversation_history", [])

latest = {}
for rec in history:
    outcome = rec.get("outcome_summary", {})
    if outcome.get("ok"):
        cls = outcome.get("value_class")
        latest[cls] = rec.get("call_id")

result = latest
