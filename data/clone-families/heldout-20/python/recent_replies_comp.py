history = context["conversation_history"]
if not history:
    result = []
else:
    texts = [
        item["content"]
        for item in history
        if item.get("role") == "assistant" and isinstance(item.get("content"), str)
    ]
    result = texts[-3:]
