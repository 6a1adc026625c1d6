history = context.get("conversation_history", [])

counts = {}
for rec in history:
    outcome = rec.get("outcome_summary", {})
    if outcome.get("ok"):
        cls = outcome.get("value_class")
        counts[cls] = counts.get(cls, 0) + 1

result = counts
