history = context.get("conversation_history", [])
unresolved = []
current = None
succeeded = False
for record in history:
    if record.get("role") == "user":
        if current is not None and not succeeded:
            unresolved.append(current)
        current = record.get("call_id")
        succeeded = False
        continue
    outcome = record.get("outcome_summary") or {}
    if outcome.get("ok") is True:
        succeeded = True
if current is not None and not succeeded:
    unresolved.append(current)
result = unresolved
