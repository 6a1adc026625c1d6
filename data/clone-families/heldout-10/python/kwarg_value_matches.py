key = kwargs.get("key", "lang")
wanted = kwargs.get("value")
history = context.get("conversation_history", [])
matches = []
for rec in history:
    call_kwargs = rec.get("kwargs") or {}
    if key in call_kwargs and call_kwargs[key] == wanted:
        matches.append(rec["call_id"])
result = matches
