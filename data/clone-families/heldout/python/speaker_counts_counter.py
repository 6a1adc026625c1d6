from collections import Counter

history = context.get("conversation_history", [])
result = dict(Counter(r["speaker"] for r in history))
