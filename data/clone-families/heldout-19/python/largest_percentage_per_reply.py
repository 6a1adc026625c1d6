import re

PERCENT = re.compile(r"\b(\d+(?:\.\d+)?)%")
history = context.get("conversation_history", [])
largest = {}
for message in history:
    if message.get("role") != "assistant":
        continue
    text = message.get("content")
    if not isinstance(text, str):
        continue
    values = [float(v) for v in PERCENT.findall(text)]
    if values:
        largest[message.get("call_id")] = max(values)
result = largest
