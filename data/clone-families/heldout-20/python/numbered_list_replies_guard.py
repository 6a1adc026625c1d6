import re

result = []
LIST_ITEM = re.compile(r"^\s*\d+[.)]\s", re.M)
if conversation_history:
    for msg in conversation_history:
        body = msg.get("content")
        if msg.get("role") == "assistant" and isinstance(body, str) and LIST_ITEM.search(body):
            result.append(msg.get("call_id"))
