history = context.get("conversation_history", [])
flagged = []
for record in history:
    if not record.get("method_name"):
        continue
    args = record.get("args") or []
    if any(isinstance(arg, bool) for arg in args):
        flagged.append(record.get("call_id"))
result = flagged
