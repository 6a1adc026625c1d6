import re
from collections import defaultdict

mentioned = defaultdict(set)
for msg in context.get("conversation_history", []):
    who, text = msg.get("speaker"), msg.get("content")
    if who and isinstance(text, str) and "@" in text:
        mentioned[who].update(re.findall(r"\B@(\w+)", text))
result = {who: sorted(handles) for who, handles in mentioned.items() if handles}
