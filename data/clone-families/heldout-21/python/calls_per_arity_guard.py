from collections import Counter

arities = Counter()
history = context.get("conversation_history") or []
for record in history:
    if not isinstance(record, dict) or not record.get("method_name"):
        continue
    args = record.get("args")
    arities[len(args) if isinstance(args, list) else 0] += 1
result = dict(sorted(arities.items()))
