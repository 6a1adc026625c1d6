import re

history = context.get("conversation_history", [])
pattern = re.compile(r"\b[0-9a-f]{7,40}\b")
mentioned = []
again = []
for record in history:
    content = record.get("content")
    if not content:
        continue
    current = []
    for token in pattern.findall(content):
        if token.isdigit() or not any(ch.isdigit() for ch in token):
            continue
        if token not in current:
            current.append(token)
    for token in current:
        if token in mentioned and token not in again:
            again.append(token)
    mentioned.extend(t for t in current if t not in mentioned)
result = again
