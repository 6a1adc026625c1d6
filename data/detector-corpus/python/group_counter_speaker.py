from collections import Counter

history = context["conversation_history"]
by_speaker = Counter(r["speaker"] for r in history)
result = dict(by_speaker)
