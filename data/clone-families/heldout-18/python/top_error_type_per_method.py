history = context.get("conversation_history", [])
types_by_method = {}
for record in history:
    method = record.get("method_name")
    outcome = record.get("outcome_summary") or {}
    if not method or outcome.get("ok") is not False:
        continue
    error_type = outcome.get("error_type")
    if isinstance(error_type, str) and error_type:
        counts = types_by_method.setdefault(method, {})
        counts[error_type] = counts.get(error_type, 0) + 1
result = {m: max(sorted(t), key=t.get) for m, t in types_by_method.items()}
