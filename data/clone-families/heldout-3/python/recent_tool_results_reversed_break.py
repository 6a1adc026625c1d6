def _summary(record):
    return (record.get("outcome_summary") or {}).get("summary")


name = kwargs.get("tool", "web_search")
picked = []
for record in reversed(conversation_history):
    out = record.get("outcome_summary") or {}
    if record.get("method_name") == name and out.get("ok") is True:
        picked.append(_summary(record))
        if len(picked) == 3:
            break
picked.reverse()
result = picked
