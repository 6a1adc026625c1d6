history = context.get("conversation_history", [])
values = {}
for record in history:
    for key, value in (record.get("kwargs") or {}).items():
        values.setdefault(key, set()).add(repr(value))
result = {key: len(vals) for key, vals in values.items()}
