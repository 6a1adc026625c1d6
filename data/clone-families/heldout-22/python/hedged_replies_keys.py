import re

history = context["conversation_history"]
HEDGE = re.compile(r"\b(maybe|perhaps|might|possibly|probably)\b", re.I)
result = []
for item in history:
    body = item.get("content")
    if item.get("role") != "assistant" or not isinstance(body, str):
        continue
    found = HEDGE.search(body)
    if found:
        result.append({"reply": item.get("call_id"), "hedging_word": found.group(1).lower()})
