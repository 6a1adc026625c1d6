widest = {}
records = context.get("conversation_history") or []
for rec in records:
    summary = rec.get("outcome_summary") or {}
    etype, text = summary.get("error_type"), summary.get("error_message")
    if summary.get("ok") is not False or not isinstance(etype, str) or not etype or not isinstance(text, str):
        continue
    if etype not in widest or len(text) > len(widest[etype]):
        widest[etype] = text
result = widest
