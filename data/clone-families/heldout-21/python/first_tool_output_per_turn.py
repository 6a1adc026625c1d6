history = context.get("conversation_history") or []
pairs = []
for index, record in enumerate(history):
    if record.get("role") != "user":
        continue
    output = None
    for later in history[index + 1:]:
        if later.get("role") == "user":
            break
        if later.get("role") == "tool":
            output = later.get("content")
            break
    pairs.append({"user_call_id": record.get("call_id"), "tool_output": output})
result = pairs
