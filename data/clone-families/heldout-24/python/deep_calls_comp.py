records = context.get("conversation_history") or []
result = [
    {"call_id": rec.get("call_id"), "method": rec.get("method_name"), "depth": rec.get("depth"), "timestamp": rec.get("timestamp")}
    for rec in records
    if rec.get("method_name") and isinstance(rec.get("depth"), int)
    and not isinstance(rec.get("depth"), bool) and rec.get("depth") > 2
]
