import re

SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
history = context.get("conversation_history") or []
result = []
for record in history:
    if not isinstance(record, dict):
        continue
    text = record.get("content")
    if record.get("role") != "user" or not isinstance(text, str) or "_" not in text:
        continue
    names = SNAKE.findall(text)
    if names:
        result.append({"call_id": record.get("call_id"), "timestamp": record.get("timestamp"), "identifiers": names})
