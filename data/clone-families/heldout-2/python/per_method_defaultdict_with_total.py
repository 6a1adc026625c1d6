from collections import defaultdict

per_method = defaultdict(int)
for entry in conversation_history:
    m = entry.get("method_name")
    if m:
        per_method[m] += 1
total_calls = sum(per_method.values())
result = {"per_method": dict(per_method), "total": total_calls}
