history = context.get("conversation_history", [])
first_message = {}
for rec in history:
    outcome = rec.get("outcome_summary") or {}
    if outcome.get("ok"):
        continue
    method = rec.get("method_name")
    text = outcome.get("error_message")
    if not method or not text:
        continue
    if method not in first_message:
        first_message[method] = text
result = first_message
