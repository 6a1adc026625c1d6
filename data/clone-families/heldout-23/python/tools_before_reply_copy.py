messages = context["conversation_history"]
waiting = []
result = []
for msg in messages:
    kind = msg.get("role")
    if kind == "tool":
        waiting.append(msg.get("call_id"))
    elif kind == "assistant":
        result.append({"reply": msg.get("call_id"), "tools": list(waiting)})
        waiting.clear()
