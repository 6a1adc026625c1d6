import re

PERCENT = re.compile(r"\b\d+(?:\.\d+)?%")
history = context.get("conversation_history", [])
seen = []
for message in history:
    if message.get("role") != "assistant":
        continue
    text = message.get("content")
    if not isinstance(text, str):
        continue
    for match in PERCENT.findall(text):
        if match not in seen:
            seen.append(match)
result = seen
