import re

greetings = []
for record in conversation_history:
    text = record.get("content")
    if record.get("role") == "user" and isinstance(text, str) and re.match(r"\s*(hi|hello|hey)\b", text, re.I):
        greetings.append({"call_id": record.get("call_id"), "message": text})
greetings
