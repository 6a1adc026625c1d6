history = context.get("conversation_history", [])
texts = []
for record in history:
    text = record.get("content")
    if record.get("role") != "user" or not isinstance(text, str):
        continue
    texts.append({"call_id": record.get("call_id"), "text": text.lower()})
result = texts
