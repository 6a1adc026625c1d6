import re

CALL_ID = re.compile(r"call_[0-9a-f]{6}")

history = context.get("conversation_history", [])
citing = {}
for record in history:
    content = record.get("content")
    parent = record.get("parent_call_id")
    if not isinstance(content, str) or not parent:
        continue
    if parent in CALL_ID.findall(content):
        citing[record.get("call_id")] = parent
result = citing
