import re

PUSHBACK = {"no", "nope", "actually", "wrong", "stop"}

history = context.get("conversation_history", [])
pushed_back = []
last_reply = None
for record in history:
    if record.get("role") == "assistant":
        last_reply = record.get("call_id")
        continue
    if record.get("role") != "user":
        continue
    match = re.match(r"\s*([A-Za-z']+)", record.get("content") or "")
    if match and match.group(1).lower() in PUSHBACK and last_reply and last_reply not in pushed_back:
        pushed_back.append(last_reply)
result = pushed_back
