import re

PUSHBACK = {"no", "nope", "actually", "wrong", "stop"}

history = context.get("conversation_history", [])
pushback = []
for record in history:
    if record.get("role") != "user":
        continue
    match = re.match(r"\s*([A-Za-z']+)", record.get("content") or "")
    if match and match.group(1).lower() in PUSHBACK:
        pushback.append(record.get("call_id"))
result = pushback
