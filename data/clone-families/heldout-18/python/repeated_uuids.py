import re

history = context.get("conversation_history", [])
UUID = re.compile(r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b")
mentions = {}
for record in history:
    content = record.get("content")
    if not isinstance(content, str):
        continue
    for match in set(UUID.findall(content)):
        mentions.setdefault(match.lower(), set()).add(record.get("call_id"))
result = [value for value, records in mentions.items() if len(records) > 1]
