import re

result = [
    reply.get("call_id")
    for reply in conversation_history
    if reply.get("role") == "assistant"
    and isinstance(reply.get("content"), str)
    and re.search(r"^\s*\d+[.)]\s", reply["content"], re.MULTILINE)
]
