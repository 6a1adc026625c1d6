records = context.get("conversation_history") or []
already = set()
stale = []
for r in records:
    out = r.get("outcome_summary") or {}
    text = out.get("summary")
    if out.get("ok") is True and text:
        if text in already:
            stale.append(r.get("call_id"))
        already.add(text)
result = stale
