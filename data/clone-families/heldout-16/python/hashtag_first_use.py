import re

TAG = re.compile(r"(?<!\w)#([A-Za-z]\w*)")

history = context.get("conversation_history", [])
first_use = {}
for record in history:
    if record.get("role") != "user":
        continue
    text = record.get("content")
    if isinstance(text, str):
        for tag in TAG.findall(text):
            first_use.setdefault(tag.lower(), record.get("call_id"))
result = first_use
