history = context.get("conversation_history", [])

counts = {}
for rec in history:
    counts[rec["depth"]] = counts.get(rec["depth"], 0) + 1

total = len(history)
result = {depth: round(n / total, 3) for depth, n in sorted(counts.items())}
