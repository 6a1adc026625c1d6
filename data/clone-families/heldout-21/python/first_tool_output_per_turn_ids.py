log = context.get("conversation_history") or []
turns = []
for i, msg in enumerate(log):
    if msg.get("role") != "user":
        continue
    tool_id, output = None, None
    for follow in log[i + 1:]:
        if follow.get("role") == "user":
            break
        if follow.get("role") == "tool":
            tool_id, output = follow.get("call_id"), follow.get("content")
            break
    turns.append({"user_call_id": msg.get("call_id"), "tool_call_id": tool_id, "tool_output": output})
result = turns
