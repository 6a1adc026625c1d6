import re

GREETING = re.compile(r"\s*(hi|hello|hey)\b", re.I)
greetings = []
for record in conversation_history:
    text = record.get("content")
    if record.get("role") == "user" and isinstance(text, str) and GREETING.match(text):
        greetings.append({"call_id": record.get("call_id"), "greeting": text})
greetings
