flagged = []
history = context.get("conversation_history", [])
for record in history:
    if not record.get("method_name"):
        continue
    args = record.get("args") or []
    if any(isinstance(arg, bool) for arg in args):
        flagged.append({"id": record.get("call_id"), "at": record.get("timestamp")})
result = flagged
