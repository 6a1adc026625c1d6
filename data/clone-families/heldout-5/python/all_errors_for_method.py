target = kwargs.get("method")
history = context.get("conversation_history", [])

messages = []
for record in history:
    if record.get("method_name") != target:
        continue
    outcome = record.get("outcome_summary") or {}
    if not outcome.get("ok", True):
        messages.append(outcome.get("error_message"))

result = {"method": target, "error_messages": messages}
