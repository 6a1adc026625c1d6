history = context.get("conversation_history", [])

counts = {}
for rec in history:
    g = rec.get("goal")
    if g:
        counts[g] = counts.get(g, 0) + 1

result = counts
