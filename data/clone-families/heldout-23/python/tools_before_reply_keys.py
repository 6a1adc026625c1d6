history = context["conversation_history"]
result = []
pending = []
for record in history:
    role = record.get("role")
    if role == "tool":
        pending.append(record.get("call_id"))
    elif role == "assistant":
        result.append({"assistant_reply": record.get("call_id"), "preceding_tool_outputs": pending})
        pending = []
