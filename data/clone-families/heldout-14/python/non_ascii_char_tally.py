history = context.get("conversation_history", [])
tally = {}
for record in history:
    content = record.get("content")
    if not isinstance(content, str):
        continue
    for ch in content:
        if ord(ch) > 127:
            tally[ch] = tally.get(ch, 0) + 1
result = tally
