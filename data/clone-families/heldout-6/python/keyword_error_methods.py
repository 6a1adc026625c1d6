history = context.get("conversation_history", [])
keyword = kwargs.get("keyword", "timeout").lower()
methods = set()
for record in history:
    outcome = record.get("outcome_summary") or {}
    if outcome.get("ok"):
        continue
    message = outcome.get("error_message") or ""
    if keyword in message.lower():
        methods.add(record.get("method_name"))
result = {"keyword": keyword, "methods": sorted(m for m in methods if m)}
