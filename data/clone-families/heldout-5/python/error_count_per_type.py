history = context.get("conversation_history", [])

by_type = {}
for rec in history:
    out = rec.get("outcome_summary") or {}
    if out.get("ok"):
        continue
    etype = out.get("error_type") or "UnknownError"
    by_type[etype] = by_type.get(etype, 0) + 1

result = by_type
