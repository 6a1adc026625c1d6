def signature(args):
    if args is None:
        args = []
    return tuple(map(lambda a: type(a).__name__, args))


history = context.get("conversation_history") or []
table = {}
calls = {}
for rec in history:
    method = rec.get("method_name")
    if method is None or method == "":
        continue
    calls[method] = calls.get(method, 0) + 1
    table.setdefault(method, [])
    sig = signature(rec.get("args"))
    if sig not in table[method]:
        table[method].append(sig)
[{"method": m, "signatures": table[m], "calls": calls[m]} for m in sorted(table)]
