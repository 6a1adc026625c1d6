records = context["conversation_history"]
tool_ids = []
result = []
for entry in records:
    role = entry.get("role")
    if role == "tool":
        tool_ids.append(entry.get("call_id"))
    elif role == "assistant":
        result.append({"reply": entry.get("call_id"), "tools": tool_ids, "timestamp": entry.get("timestamp")})
        tool_ids = []
