total = 0.0
n = 0
for entry in context["conversation_history"]:
    if entry.get("method_name") != "transfer_funds":
        continue
    positional = entry.get("args", [])
    if not positional:
        continue
    first = positional[0]
    if not isinstance(first, (int, float)):
        continue
    total += first
    n += 1
result = {"average": (total / n) if n else None, "count": n}
