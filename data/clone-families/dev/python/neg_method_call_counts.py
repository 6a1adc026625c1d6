from collections import Counter

hist = context.get("conversation_history") or []
calls = Counter(h["method_name"] for h in hist)
per_method = {m: calls[m] for m in calls}
result = per_method
