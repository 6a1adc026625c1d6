from collections import Counter

rows = []
for step in context["conversation_history"]:
    method = step.get("method_name")
    kwargs = step.get("kwargs")
    if not method or not kwargs or not isinstance(kwargs, dict):
        continue
    counts = Counter(value for value in kwargs.values() if isinstance(value, str) and value)
    repeated = sorted(value for value, n in counts.items() if n > 1)
    if repeated:
        rows.append({"call_id": step.get("call_id"), "method": method, "repeated_values": repeated})
result = rows
