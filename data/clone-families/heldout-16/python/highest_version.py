import re

VERSION = re.compile(r"\bv?(\d+\.\d+\.\d+)\b")

history = context.get("conversation_history") or []
best = None
for record in history:
    content = record.get("content")
    if not isinstance(content, str):
        continue
    for version in VERSION.findall(content):
        key = tuple(int(part) for part in version.split("."))
        if best is None or key > best[0]:
            best = (key, version)
result = best[1] if best else None
