import re

history = context.get("conversation_history", [])
undo_re = re.compile(r"\b(undo|revert|roll ?back)\b", re.I)
requests = []
for record in history:
    text = record.get("content")
    if record.get("role") != "user" or not isinstance(text, str):
        continue
    match = undo_re.search(text)
    if match:
        requests.append({"call_id": record.get("call_id"), "word": match.group(1).lower(), "timestamp": record.get("timestamp")})
result = requests
