def failed(entry):
    summary = entry.get("outcome_summary") or {}
    return not summary.get("ok")


records = context.get("conversation_history") or []
name = kwargs.get("method")
candidates = [
    (i, r) for i, r in enumerate(records)
    if r.get("method_name") == name and failed(r)
]
if candidates:
    _, rec = max(candidates, key=lambda pair: pair[0])
    result = (name, rec["call_id"], rec["outcome_summary"]["error_message"])
else:
    result = (name, None, None)
