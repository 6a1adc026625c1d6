history = context.get("conversation_history", [])
last_class = {}
changed = []
for record in history:
    method = record.get("method_name")
    outcome = record.get("outcome_summary") or {}
    if not method or outcome.get("ok") is not True:
        continue
    value_class = outcome.get("value_class") or None
    if method in last_class and last_class[method] != value_class:
        changed.append(record.get("call_id"))
    last_class[method] = value_class
result = changed
