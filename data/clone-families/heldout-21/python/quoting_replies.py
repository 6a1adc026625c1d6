import re

history = context.get("conversation_history", [])
quoting = []
for record in history:
    text = record.get("content")
    if record.get("role") == "assistant" and isinstance(text, str):
        if re.search(r"^[ \t]*>", text, re.M):
            quoting.append(record.get("call_id"))
result = quoting
