import re

history = context["conversation_history"]
replies = []
for record in history:
    if record.get("role") == "assistant" and isinstance(record.get("content"), str):
        if re.search(r"\?\s*$", record["content"]):
            replies.append(record["content"])
result = replies
