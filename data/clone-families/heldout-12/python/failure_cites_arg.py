history = context.get("conversation_history", [])
citing = []
for record in history:
    outcome = record.get("outcome_summary") or {}
    if outcome.get("ok") is not False:
        continue
    message = outcome.get("error_message") or ""
    for arg in record.get("args") or []:
        if isinstance(arg, str) and arg and arg in message:
            citing.append(record.get("call_id"))
            break
result = citing
