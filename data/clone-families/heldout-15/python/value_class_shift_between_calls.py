history = context.get("conversation_history", [])
last_class = None
have_last = False
changed = []
for record in history:
    method = record.get("method_name")
    outcome = record.get("outcome_summary") or {}
    if not method or outcome.get("ok") is not True:
        continue
    value_class = outcome.get("value_class") or None
    if have_last and last_class != value_class:
        changed.append(record.get("call_id"))
    last_class = value_class
    have_last = True
result = changed
