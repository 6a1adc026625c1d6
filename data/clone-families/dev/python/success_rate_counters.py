from collections import Counter

hist = context.get("conversation_history") or []
calls = Counter(h["method_name"] for h in hist)
successes = Counter(h["method_name"] for h in hist if h["outcome_summary"]["ok"])
rates = {m: round(successes[m] / calls[m], 2) for m in calls}
result = rates
