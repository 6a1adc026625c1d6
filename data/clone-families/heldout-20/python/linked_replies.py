import re

LINK = re.compile(r"\[[^\]\n]+\]\([^)\s]+\)")
history = context.get("conversation_history", [])
[
    m.get("call_id")
    for m in history
    if m.get("role") == "assistant" and isinstance(m.get("content"), str) and LINK.search(m["content"])
]
