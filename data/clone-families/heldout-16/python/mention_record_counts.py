import re

MENTION = re.compile(r"(?<!\w)@(\w+)")

history = context.get("conversation_history") or []
result = {}
for record in history:
    content = record.get("content")
    if not isinstance(content, str):
        continue
    for handle in set(MENTION.findall(content)):
        result[handle] = result.get(handle, 0) + 1
