import re
from collections import Counter

TAG = re.compile(r"(?<!\w)#([A-Za-z]\w*)")

history = context.get("conversation_history", [])
tags = Counter()
for record in history:
    if record.get("role") != "user":
        continue
    text = record.get("content")
    if isinstance(text, str):
        tags.update(tag.lower() for tag in TAG.findall(text))
result = dict(tags)
