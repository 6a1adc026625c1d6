import re

history = context.get("conversation_history", [])
UUID = re.compile(r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b")
seen = []
for record in history:
    content = record.get("content")
    if not isinstance(content, str):
        continue
    for match in UUID.findall(content):
        value = match.lower()
        if value not in seen:
            seen.append(value)
result = seen
