import re

LINK = re.compile(r"\[[^\]\n]+\]\([^)\s]+\)")
history = context.get("conversation_history", [])
linked = []
for reply in history:
    if reply.get("role") == "assistant" and isinstance(reply.get("content"), str):
        if LINK.search(reply["content"]):
            linked.append(reply.get("call_id"))
linked
