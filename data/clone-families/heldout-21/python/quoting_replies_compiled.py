import re

QUOTE_LINE = re.compile(r"^[ \t]*>", re.M)
quoting = []
history = context.get("conversation_history", [])
for record in history:
    if not isinstance(record, dict):
        continue
    text = record.get("content")
    if record.get("role") == "assistant" and isinstance(text, str):
        if QUOTE_LINE.search(text):
            quoting.append(record.get("call_id"))
result = quoting
