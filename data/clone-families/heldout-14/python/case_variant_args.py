history = context.get("conversation_history", [])
spellings = {}
for record in history:
    method = record.get("method_name")
    if not method:
        continue
    for arg in record.get("args") or []:
        if not isinstance(arg, str):
            continue
        spellings.setdefault(method, {}).setdefault(arg.lower(), set()).add(arg)

variants = {}
for method, groups in spellings.items():
    mixed = {key: sorted(forms) for key, forms in groups.items() if len(forms) > 1}
    if mixed:
        variants[method] = mixed
result = variants
