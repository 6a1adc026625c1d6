import re

NUMBERED = re.compile(r"^\s*\d+[.)]\s", re.M)
result = []
for entry in conversation_history:
    if not isinstance(entry, dict):
        continue
    body = entry.get("content")
    if entry.get("role") == "assistant" and isinstance(body, str) and NUMBERED.search(body):
        result.append({"reply_id": entry.get("call_id"), "time": entry.get("timestamp")})
