history = context.get("conversation_history") or []
failed = {}
for record in history:
    role = record.get("role")
    ok = (record.get("outcome_summary") or {}).get("ok")
    if role and ok is False:
        failed.setdefault(role, []).append(record.get("call_id"))
result = failed
