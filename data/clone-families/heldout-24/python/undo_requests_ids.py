import re

undo_pattern = re.compile(r"\b(undo|revert|roll ?back)\b", re.I)
entries = context.get("conversation_history", [])
found = []
for entry in entries:
    body = entry.get("content")
    if entry.get("role") != "user" or not isinstance(body, str):
        continue
    if undo_pattern.search(body):
        found.append({"call_id": entry.get("call_id")})
result = found
