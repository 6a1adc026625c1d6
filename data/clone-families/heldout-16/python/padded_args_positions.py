history = context.get("conversation_history") or []
padded = {}
for rec in history:
    method = rec.get("method_name")
    args = rec.get("args")
    if not method or not args:
        continue
    hits = [
        {"position": i, "value": repr(a)}
        for i, a in enumerate(args)
        if isinstance(a, str) and a.strip() != "" and a.strip() != a
    ]
    if hits:
        padded[rec.get("call_id")] = {"method": method, "args": hits}
result = padded
