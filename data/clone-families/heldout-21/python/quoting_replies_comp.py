import re

messages = context.get("conversation_history", [])
result = [
    msg.get("call_id")
    for msg in messages
    if msg.get("role") == "assistant"
    and isinstance(msg.get("content"), str)
    and re.search(r"^[ \t]*>", msg["content"], re.M)
]
