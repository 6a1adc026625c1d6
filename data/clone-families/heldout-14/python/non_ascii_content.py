history = context.get("conversation_history", [])
flagged = []
for record in history:
    content = record.get("content")
    if not isinstance(content, str):
        continue
    if any(ord(ch) > 127 for ch in content):
        flagged.append(record.get("call_id"))
result = flagged
