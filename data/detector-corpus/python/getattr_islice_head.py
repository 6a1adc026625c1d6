from itertools import islice

hist = getattr(context, "conversation_history", [])
head = list(islice(hist, 3))
result = [r["speaker"] for r in head]
