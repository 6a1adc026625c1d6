history = context.get("conversation_history", [])
result = []
for i, rec in enumerate(history):
    method = rec.get("method_name")
    if not method or rec["outcome_summary"].get("ok"):
        continue
    called_again = any(later.get("method_name") == method for later in history[i + 1:])
    if not called_again:
        result.append(rec["call_id"])
