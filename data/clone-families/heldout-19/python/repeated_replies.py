history = context.get("conversation_history", [])
result = []
previous = None
for record in history:
    if record.get("role") != "assistant" or not isinstance(record.get("content"), str):
        continue
    if previous is not None and record["content"] == previous:
        result.append(record.get("call_id"))
    previous = record["content"]
