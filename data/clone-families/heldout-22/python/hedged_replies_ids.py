import re

history = context["conversation_history"]
result = []
for item in history:
    body = item.get("content")
    if item.get("role") != "assistant" or not isinstance(body, str):
        continue
    if re.search(r"\b(maybe|perhaps|might|possibly|probably)\b", body, re.I):
        result.append({"call_id": item.get("call_id")})
