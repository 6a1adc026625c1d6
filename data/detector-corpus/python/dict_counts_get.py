counts = {}
for rec in context["conversation_history"]:
    key = rec["speaker"]
    counts[key] = counts.get(key, 0) + 1
result = counts
