history = context.get("conversation_history", [])

first_outcome = {}
for record in history:
    method = record.get("method_name")
    if not method:
        continue
    if method not in first_outcome:
        first_outcome[method] = record.get("outcome_summary", {}).get("ok")

result = sorted(m for m, ok in first_outcome.items() if not ok)
