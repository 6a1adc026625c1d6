import re

HEDGE = re.compile(r"\b(maybe|perhaps|might|possibly|probably)\b", re.I)
history = context["conversation_history"]
result = []
for item in history:
    body = item.get("content")
    if item.get("role") != "assistant" or not isinstance(body, str):
        continue
    found = HEDGE.search(body)
    if found:
        result.append({"call_id": item.get("call_id"), "hedge": found.group(1).lower()})
