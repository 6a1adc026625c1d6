import re

openers = []
for msg in conversation_history:
    body = msg.get("content")
    if msg.get("role") == "user" and isinstance(body, str) and re.match(r"\s*(hi|hello|hey)\b", body, re.I):
        openers.append(msg.get("call_id"))
openers
