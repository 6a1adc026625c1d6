history = context.get("conversation_history", [])

counts = {}
failures = {}
for rec in history:
    counts[rec["depth"]] = counts.get(rec["depth"], 0) + 1
    if not rec["outcome_summary"]["ok"]:
        failures[rec["depth"]] = failures.get(rec["depth"], 0) + 1

result = {depth: round(failures.get(depth, 0) / n, 3) for depth, n in sorted(counts.items())}
