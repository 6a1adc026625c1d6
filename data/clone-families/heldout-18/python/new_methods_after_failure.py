history = context.get("conversation_history", [])
first_failure = None
for i, record in enumerate(history):
    if (record.get("outcome_summary") or {}).get("ok") is False:
        first_failure = i
        break

new_methods = []
if first_failure is not None:
    known = {r.get("method_name") for r in history[: first_failure + 1] if r.get("method_name")}
    for record in history[first_failure + 1:]:
        method = record.get("method_name")
        if method and method not in known and method not in new_methods:
            new_methods.append(method)
result = new_methods
