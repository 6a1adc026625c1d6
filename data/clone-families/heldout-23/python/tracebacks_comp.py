import re

pattern = re.compile(r"^Traceback \(most recent call last\):", re.M)
messages = context.get("conversation_history") or []
result = [
    {"call_id": msg.get("call_id"), "last_line": msg["content"].strip().splitlines()[-1]}
    for msg in messages
    if msg.get("role") == "user" and isinstance(msg.get("content"), str) and pattern.search(msg["content"])
]
