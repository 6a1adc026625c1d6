history = context.get("conversation_history", [])
totals = {}
calls = {}
for record in history:
    method = record.get("method_name")
    if not method:
        continue
    totals[method] = totals.get(method, 0) + len(record.get("args") or [])
    calls[method] = calls.get(method, 0) + 1

result = {m: totals[m] for m in totals if calls[m]}
