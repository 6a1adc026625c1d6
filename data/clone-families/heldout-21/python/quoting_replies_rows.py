import re

history = context.get("conversation_history", [])
quoting = []
for reply in history:
    body = reply.get("content")
    if reply.get("role") == "assistant" and isinstance(body, str):
        if re.search(r"^[ \t]*>", body, re.M):
            quoting.append((reply.get("call_id"), body))
result = quoting
