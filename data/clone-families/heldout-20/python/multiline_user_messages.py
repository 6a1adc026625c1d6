multiline = []
for message in conversation_history:
    if message.get("role") != "user":
        continue
    text = message.get("content")
    if isinstance(text, str) and len(text.splitlines()) > 1:
        multiline.append(message.get("call_id"))
multiline
