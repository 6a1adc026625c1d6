history = context.get("conversation_history", [])

totals = {}
counts = {}
for rec in history:
    speaker = rec["speaker"]
    size = len(rec["result"] or "")
    totals[speaker] = totals.get(speaker, 0) + size
    counts[speaker] = counts.get(speaker, 0) + 1

result = {s: round(totals[s] / counts[s], 2) for s in totals}
