from collections import Counter

calls = context.get("conversation_history") or []
tally = Counter(r["method_name"] for r in calls if r.get("method_name"))
result = dict(tally.most_common())
