key = kwargs.get("key", "lang")
wanted = kwargs.get("value")
history = context.get("conversation_history", [])
matches = []
for rec in history:
    call_kwargs = rec.get("kwargs") or {}
    passed = list(rec.get("args") or []) + list(call_kwargs.values())
    if wanted in passed:
        matches.append(rec["call_id"])
result = matches
