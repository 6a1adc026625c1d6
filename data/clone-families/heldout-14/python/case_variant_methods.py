history = context.get("conversation_history", [])
receivers = {}
for record in history:
    method = record.get("method_name")
    if not method:
        continue
    for arg in record.get("args") or []:
        if not isinstance(arg, str):
            continue
        receivers.setdefault(arg.lower(), set()).add(method)

shared = {}
for key, methods in receivers.items():
    if len(methods) > 1:
        shared[key] = sorted(methods)
result = shared
