import re

trace_re = re.compile(r"^Traceback \(most recent call last\):", re.M)
history = context.get("conversation_history") or []
pasted = []
if isinstance(history, list):
    for record in history:
        if not isinstance(record, dict):
            continue
        text = record.get("content")
        if record.get("role") == "user" and isinstance(text, str) and trace_re.search(text):
            pasted.append({"call_id": record.get("call_id")})
result = pasted
