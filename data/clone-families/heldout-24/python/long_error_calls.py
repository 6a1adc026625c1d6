history = context.get("conversation_history") or []
long_errors = []
for record in history:
    outcome = record.get("outcome_summary") or {}
    kind, message = outcome.get("error_type"), outcome.get("error_message")
    if outcome.get("ok") is not False or not isinstance(kind, str) or not kind or not isinstance(message, str):
        continue
    if len(message) > 80:
        long_errors.append({"call_id": record.get("call_id"), "error_type": kind})
result = long_errors
