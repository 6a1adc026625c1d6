history = context.get("conversation_history", [])
tally = {}
for call in history:
    if not call.get("method_name"):
        continue
    for arg in call.get("args") or []:
        if not isinstance(arg, str) or any(ch.isspace() for ch in arg):
            continue
        name = arg.rsplit("/", 1)[-1]
        dot = name.rfind(".")
        if dot <= 0 or dot == len(name) - 1:
            continue
        ext = name[dot + 1:].lower()
        if ext.isalnum():
            tally.setdefault(ext, set()).add(call["method_name"])
result = {ext: sorted(methods) for ext, methods in tally.items()}
