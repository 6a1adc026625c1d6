from collections import Counter

history = context.get("conversation_history", [])
counts = Counter(r["speaker"] for r in history)
result = {speaker: n / len(history) for speaker, n in counts.items()}
