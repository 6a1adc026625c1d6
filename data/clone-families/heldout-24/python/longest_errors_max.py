entries = context.get("conversation_history") or []
grouped = {}
for entry in entries:
    out = entry.get("outcome_summary") or {}
    etype, msg = out.get("error_type"), out.get("error_message")
    if out.get("ok") is False and isinstance(etype, str) and etype and isinstance(msg, str):
        grouped.setdefault(etype, []).append(msg)
result = {etype: max(msgs, key=len) for etype, msgs in grouped.items()}
