history = context["conversation_history"]
result = []
for record in history:
    if not record.get("method_name"):
        continue
    for arg in record.get("args") or []:
        if isinstance(arg, str) and "  " in arg.strip():
            result.append(record.get("call_id"))
            break
