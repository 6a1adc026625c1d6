history = context.get("conversation_history") or []
pairs = []
for index, record in enumerate(history):
    if not isinstance(record, dict) or record.get("role") != "user":
        continue
    output = None
    for later in history[index + 1:]:
        if not isinstance(later, dict):
            continue
        if later.get("role") == "user":
            break
        if later.get("role") == "tool":
            output = later.get("content")
            break
    pairs.append({"user": record.get("call_id"), "output": output})
result = pairs
