from collections import Counter

history = context.get("conversation_history", [])
seen = Counter()
for record in history:
    method = record.get("method_name")
    if not method:
        continue
    key = (method, tuple(record.get("args") or []))
    seen[key] += 1
if seen:
    (method, call_args), n = seen.most_common(1)[0]
    result = {"method": method, "args": list(call_args), "times": n}
else:
    result = None
