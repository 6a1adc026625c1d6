import re

result = []
history = context.get("conversation_history") or []
for record in history:
    text = record.get("content")
    if record.get("role") != "user" or not isinstance(text, str):
        continue
    names = re.findall(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b", text)
    if names:
        result.append({"call_id": record.get("call_id"), "identifiers": names})
