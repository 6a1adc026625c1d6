history = context.get("conversation_history", [])
unresolved = []
current = None
last_ok = None
for record in history:
    if record.get("role") == "user":
        if current is not None and last_ok is False:
            unresolved.append(current)
        current = record.get("call_id")
        last_ok = None
        continue
    outcome = record.get("outcome_summary") or {}
    if "ok" in outcome:
        last_ok = outcome.get("ok") is True
if current is not None and last_ok is False:
    unresolved.append(current)
result = unresolved
