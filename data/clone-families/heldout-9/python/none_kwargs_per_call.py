history = context.get("conversation_history", [])
result = {}
for rec in history:
    kw = rec.get("kwargs") or {}
    empty_keys = sorted(k for k, v in kw.items() if v is None)
    if empty_keys:
        result[rec["call_id"]] = empty_keys
