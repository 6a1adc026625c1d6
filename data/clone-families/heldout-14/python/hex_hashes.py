import re

history = context.get("conversation_history", [])
pattern = re.compile(r"\b[0-9a-f]{7,40}\b")
hashes = []
for record in history:
    content = record.get("content")
    if not content:
        continue
    for token in pattern.findall(content):
        if token.isdigit() or not any(ch.isdigit() for ch in token):
            continue
        if token not in hashes:
            hashes.append(token)
result = hashes
