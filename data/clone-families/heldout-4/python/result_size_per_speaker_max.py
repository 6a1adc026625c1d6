history = context.get("conversation_history", [])

largest = {}
counts = {}
for rec in history:
    speaker = rec["speaker"]
    size = len(rec["result"] or "")
    largest[speaker] = max(largest.get(speaker, 0), size)
    counts[speaker] = counts.get(speaker, 0) + 1

result = {s: largest[s] for s in largest}
