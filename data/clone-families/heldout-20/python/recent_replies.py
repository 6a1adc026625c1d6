history = context["conversation_history"]
replies = []
for record in history:
    if record.get("role") == "assistant" and isinstance(record.get("content"), str):
        replies.append(record["content"])
result = replies[-3:]
