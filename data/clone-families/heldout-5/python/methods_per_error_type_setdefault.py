history = context.get("conversation_history", [])

by_type = {}
for rec in history:
    out = rec.get("outcome_summary") or {}
    if out.get("ok"):
        continue
    etype = out.get("error_type") or "UnknownError"
    by_type.setdefault(etype, set()).add(rec.get("method_name"))

result = {etype: sorted(methods) for etype, methods in by_type.items()}
