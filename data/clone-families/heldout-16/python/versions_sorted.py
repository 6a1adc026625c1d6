import re

found = set()
for rec in context.get("conversation_history", []):
    body = rec.get("content")
    if isinstance(body, str) and "." in body:
        found.update(re.findall(r"\bv?((?:\d+\.){2}\d+)\b", body))
result = sorted(found, key=lambda v: tuple(int(p) for p in v.split(".")))
