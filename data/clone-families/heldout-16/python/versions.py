import re

VERSION = re.compile(r"\bv?(\d+\.\d+\.\d+)\b")

history = context.get("conversation_history") or []
seen = []
for record in history:
    content = record.get("content")
    if not isinstance(content, str):
        continue
    for version in VERSION.findall(content):
        if version not in seen:
            seen.append(version)
result = seen
