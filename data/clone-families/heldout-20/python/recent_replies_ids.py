history = context["conversation_history"]
replies = []
for record in history:
    if record.get("role") == "assistant" and isinstance(record.get("content"), str):
        replies.append({"call_id": record.get("call_id"), "text": record["content"]})
result = replies[-3:]
