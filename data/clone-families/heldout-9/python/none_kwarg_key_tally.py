history = context.get("conversation_history", [])
result = {}
for rec in history:
    kw = rec.get("kwargs") or {}
    for k in sorted(k for k, v in kw.items() if v is None):
        result[k] = result.get(k, 0) + 1
