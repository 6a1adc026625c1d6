total_lines = 0
for message in conversation_history:
    if message.get("role") != "user":
        continue
    text = message.get("content")
    if isinstance(text, str):
        total_lines += len(text.splitlines())
total_lines
