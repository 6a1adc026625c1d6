errors = []
records = context.get("conversation_history", [])
for rec in records:
    summary = rec.get("outcome_summary") or {}
    if summary.get("ok"):
        continue
    errors.append({
        "call_id": rec.get("call_id"),
        "method": rec.get("method_name"),
        "error": summary.get("error_type"),
    })
result = errors
