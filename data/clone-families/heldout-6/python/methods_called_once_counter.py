from collections import Counter

history = context.get("conversation_history", [])
counts = Counter(r.get("method_name") for r in history if r.get("method_name"))
result = sorted(name for name, n in counts.items() if n == 1)
