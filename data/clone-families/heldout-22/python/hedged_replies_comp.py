import re

hedge_re = re.compile(r"\b(maybe|perhaps|might|possibly|probably)\b", re.I)
replies = context["conversation_history"]
matches = [
    (msg.get("call_id"), hedge_re.search(msg["content"]))
    for msg in replies
    if msg.get("role") == "assistant" and isinstance(msg.get("content"), str)
]
result = [{"call_id": cid, "hedge": m.group(1).lower()} for cid, m in matches if m]
