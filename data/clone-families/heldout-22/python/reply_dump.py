history = context["conversation_history"]
result = []
for item in history:
    body = item.get("content")
    if item.get("role") != "assistant" or not isinstance(body, str):
        continue
    result.append({"call_id": item.get("call_id"), "text": body.strip()})
