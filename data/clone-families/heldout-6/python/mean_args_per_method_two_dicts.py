history = context.get("conversation_history", [])
totals = {}
counts = {}
for record in history:
    method = record.get("method_name")
    if not method:
        continue
    totals[method] = totals.get(method, 0) + len(record.get("args") or [])
    counts[method] = counts.get(method, 0) + 1

result = {m: totals[m] / counts[m] for m in totals}
