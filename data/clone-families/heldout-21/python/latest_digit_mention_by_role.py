import re

latest = {}
for record in conversation_history:
    role = record.get("role")
    if role and isinstance(record.get("content"), str) and re.search(r"\d", record["content"]):
        latest[role] = record["content"]
result = latest
