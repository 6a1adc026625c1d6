history = context.get("conversation_history", [])
result = []
earlier = set()
for record in history:
    if record.get("role") != "assistant" or not isinstance(record.get("content"), str):
        continue
    if record["content"] in earlier:
        result.append(record.get("call_id"))
    earlier.add(record["content"])
