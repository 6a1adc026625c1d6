import re

pattern = re.compile(r"\b(undo|revert|roll ?back)\b", re.I)
messages = context.get("conversation_history", [])
result = [
    {"call_id": msg.get("call_id"), "word": hit.group(1).lower()}
    for msg in messages
    if msg.get("role") == "user" and isinstance(msg.get("content"), str)
    and (hit := pattern.search(msg["content"]))
]
