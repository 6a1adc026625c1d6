history = context.get("conversation_history", [])
citing = []
for record in history:
    outcome = record.get("outcome_summary") or {}
    if outcome.get("ok") is not False:
        continue
    message = outcome.get("error_message") or ""
    method = record.get("method_name")
    if isinstance(method, str) and method and method in message:
        citing.append(record.get("call_id"))
result = citing
