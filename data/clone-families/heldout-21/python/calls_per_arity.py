from collections import Counter

history = context.get("conversation_history") or []
arities = Counter()
for record in history:
    if record.get("method_name"):
        arities[len(record.get("args") or [])] += 1
result = dict(sorted(arities.items()))
