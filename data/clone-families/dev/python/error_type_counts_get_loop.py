records = context.get("conversation_history", [])
tally = {}
for rec in records:
    summary = rec.get("outcome_summary") or {}
    if summary.get("ok"):
        continue
    kind = summary.get("error_type")
    tally[kind] = tally.get(kind, 0) + 1
result = tally
