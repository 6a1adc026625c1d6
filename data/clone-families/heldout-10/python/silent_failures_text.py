history = context.get("conversation_history") or []
total = 0
no_message = []
for step in history:
    out = step.get("outcome_summary")
    if out is None or out.get("ok") != False:
        continue
    total += 1
    if not str(out.get("error_message") or "").split():
        no_message.append(step["call_id"])
f"{len(no_message)} of {total} failures gave no error message: " + ", ".join(no_message)
