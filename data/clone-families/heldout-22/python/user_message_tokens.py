history = context.get("conversation_history") or []
result = []
for record in history:
    text = record.get("content")
    if record.get("role") != "user" or not isinstance(text, str):
        continue
    result.append({"call_id": record.get("call_id"), "words": text.split()})
