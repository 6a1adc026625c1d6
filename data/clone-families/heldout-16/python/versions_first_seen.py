import re

first_seen = {}
for entry in context.get("conversation_history", []):
    content = entry.get("content")
    if not isinstance(content, str):
        continue
    for m in re.finditer(r"\bv?(\d+\.\d+\.\d+)\b", content):
        if m.group(1) not in first_seen:
            first_seen[m.group(1)] = {"call_id": entry.get("call_id"), "role": entry.get("role")}
first_seen
