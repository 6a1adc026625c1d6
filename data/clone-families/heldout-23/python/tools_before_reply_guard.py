history = context["conversation_history"]
result = []
pending = []
if history:
    for record in history:
        if not isinstance(record, dict):
            continue
        role = record.get("role")
        if role == "tool":
            pending.append(record.get("call_id"))
        elif role == "assistant":
            result.append({"reply": record.get("call_id"), "tools": pending})
            pending = []
