import re

undo_re = re.compile(r"\b(undo|revert|roll ?back)\b", re.I)
history = context.get("conversation_history", [])
if not isinstance(history, list):
    history = []
requests = []
for record in history:
    if not isinstance(record, dict):
        continue
    text = record.get("content")
    if record.get("role") != "user" or not isinstance(text, str) or not text:
        continue
    match = undo_re.search(text)
    if match:
        requests.append({"message_id": record.get("call_id"), "verb": match.group(1).lower()})
result = requests
