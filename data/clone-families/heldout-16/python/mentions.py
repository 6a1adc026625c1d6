import re

MENTION = re.compile(r"(?<!\w)@(\w+)")

history = context.get("conversation_history") or []
result = {}
for record in history:
    speaker = record.get("speaker")
    content = record.get("content")
    if not speaker or not isinstance(content, str):
        continue
    for handle in MENTION.findall(content):
        handles = result.setdefault(speaker, [])
        if handle not in handles:
            handles.append(handle)
