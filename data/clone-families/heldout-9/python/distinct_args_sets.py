history = context.get("conversation_history", [])
variants = {}
for rec in history:
    name = rec.get("method_name")
    if not name:
        continue
    variants.setdefault(name, set()).add(tuple(rec.get("args") or []))
result = {name: len(seen) for name, seen in variants.items()}
