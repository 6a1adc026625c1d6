history = context.get("conversation_history", [])
last_failure = None
for i, record in enumerate(history):
    if (record.get("outcome_summary") or {}).get("ok") is False:
        last_failure = i

called_after = []
if last_failure is not None:
    for record in history[last_failure + 1:]:
        method = record.get("method_name")
        if method and method not in called_after:
            called_after.append(method)
result = called_after
