history = context.get("conversation_history", [])
messages = {}
for rec in history:
    outcome = rec.get("outcome_summary") or {}
    if outcome.get("ok"):
        continue
    method = rec.get("method_name")
    text = outcome.get("error_message")
    if not method or not text:
        continue
    bucket = messages.setdefault(method, [])
    if text not in bucket:
        bucket.append(text)
result = messages
