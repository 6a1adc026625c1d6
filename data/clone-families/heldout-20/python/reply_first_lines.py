import re

result = []
for entry in conversation_history:
    body = entry.get("content")
    if entry.get("role") == "assistant" and isinstance(body, str):
        lines = re.split(r"\r\n|\n|\r", body)
        result.append((entry.get("call_id"), lines[0]))
