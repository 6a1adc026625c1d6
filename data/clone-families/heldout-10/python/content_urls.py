import re

history = context.get("conversation_history", [])
URL = re.compile(r"https?://\S+")
found = []
for item in history:
    text = item.get("content") or ""
    for match in URL.findall(text):
        url = match.rstrip(".,;:!?)\"'")
        if url not in found:
            found.append(url)
result = found
