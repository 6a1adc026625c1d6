import re

pattern = re.compile(r"^Successfully installed (.+)$", re.M)
records = context["conversation_history"]
seen = {}
for rec in records:
    body = rec.get("content")
    if rec.get("role") != "tool" or not isinstance(body, str):
        continue
    for tail in pattern.findall(body):
        seen.update(dict.fromkeys(tail.split()))
list(seen)
