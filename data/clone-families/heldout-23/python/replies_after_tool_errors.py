import re

error_re = re.compile(r"\berror\b", re.I)
history = context["conversation_history"]
pending = []
result = []
for record in history:
    role = record.get("role")
    if role == "tool":
        pending.append(record.get("content"))
    elif role == "assistant":
        if any(isinstance(text, str) and error_re.search(text) for text in pending):
            result.append(record.get("call_id"))
        pending = []
