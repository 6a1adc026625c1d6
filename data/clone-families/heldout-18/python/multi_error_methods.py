history = context.get("conversation_history", [])
types_by_method = {}
for record in history:
    method = record.get("method_name")
    outcome = record.get("outcome_summary") or {}
    if not method or outcome.get("ok") is not False:
        continue
    error_type = outcome.get("error_type")
    if isinstance(error_type, str) and error_type:
        types_by_method.setdefault(method, set()).add(error_type)
result = {m: sorted(t) for m, t in types_by_method.items() if len(t) >= 2}
