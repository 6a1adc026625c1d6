records = context.get("conversation_history") or []
result = [
    rec.get("call_id")
    for rec in records
    if rec.get("method_name")
    and isinstance(rec.get("kwargs"), dict)
    and any(isinstance(val, list) for val in rec["kwargs"].values())
]
