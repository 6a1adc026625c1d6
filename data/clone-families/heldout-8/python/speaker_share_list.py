speakers = [m["speaker"] for m in conversation_history]
total = len(speakers)
result = sorted(
    ((s, round(speakers.count(s) / total, 3)) for s in set(speakers)),
    key=lambda pair: pair[1],
    reverse=True,
)
