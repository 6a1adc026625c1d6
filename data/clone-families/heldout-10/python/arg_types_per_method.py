history = context.get("conversation_history", [])
types_seen = {}
for rec in history:
    method = rec.get("method_name")
    if not method:
        continue
    names = {type(a).__name__ for a in (rec.get("args") or [])}
    types_seen.setdefault(method, set()).update(names)
result = {m: sorted(s) for m, s in types_seen.items()}
