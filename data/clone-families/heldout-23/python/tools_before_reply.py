history = context["conversation_history"]
pending = []
result = []
for record in history:
    role = record.get("role")
    if role == "tool":
        pending.append(record.get("call_id"))
    elif role == "assistant":
        result.append({"reply": record.get("call_id"), "tools": pending})
        pending = []
