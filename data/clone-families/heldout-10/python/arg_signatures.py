history = context.get("conversation_history", [])
signatures = {}
for rec in history:
    method = rec.get("method_name")
    if not method:
        continue
    sig = tuple(type(a).__name__ for a in (rec.get("args") or []))
    signatures.setdefault(method, set()).add(sig)
result = {m: sorted(s) for m, s in signatures.items()}
