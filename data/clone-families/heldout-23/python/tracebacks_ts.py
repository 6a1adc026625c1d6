import re

traceback_header = re.compile(r"^Traceback \(most recent call last\):", re.M)
entries = context.get("conversation_history") or []
found = []
for entry in entries:
    body = entry.get("content")
    if entry.get("role") == "user" and isinstance(body, str) and traceback_header.search(body):
        found.append({"call_id": entry.get("call_id"), "last_line": body.strip().splitlines()[-1], "timestamp": entry.get("timestamp")})
result = found
