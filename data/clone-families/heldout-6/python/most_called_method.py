from collections import Counter

history = context.get("conversation_history", [])
counts = Counter(r.get("method_name") for r in history if r.get("method_name"))
top = counts.most_common(1)
result = top[0][0] if top else None
