from collections import defaultdict

records = context.get("conversation_history") or []
by_size = defaultdict(int)
for rec in records:
    if rec.get("method_name"):
        by_size[len(rec.get("args") or [])] += 1
result = dict(sorted(by_size.items()))
