history = context.get("conversation_history", [])
classes = {}
for rec in history:
    outcome = rec.get("outcome_summary") or {}
    method = rec.get("method_name")
    if method and outcome.get("ok") and outcome.get("value_class"):
        classes.setdefault(method, set()).add(outcome["value_class"])
result = {method: sorted(found) for method, found in classes.items()}
