import re

summary_re = re.compile(r"\b(\d+) passed\b")
records = context.get("conversation_history", [])
result = []
for item in records or []:
    if not isinstance(item, dict):
        continue
    text = item.get("content")
    if item.get("role") != "tool" or not isinstance(text, str):
        continue
    found = summary_re.search(text)
    if found:
        result.append({"call_id": item.get("call_id"), "passed": int(found.group(1)), "timestamp": item.get("timestamp")})
