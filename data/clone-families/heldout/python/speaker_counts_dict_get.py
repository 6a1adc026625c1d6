history = context["conversation_history"]
counts = {}
for record in history:
    speaker = record["speaker"]
    counts[speaker] = counts.get(speaker, 0) + 1
result = counts
