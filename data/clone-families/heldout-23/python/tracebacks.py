import re

trace_re = re.compile(r"^Traceback \(most recent call last\):", re.M)
history = context.get("conversation_history") or []
pasted = []
for record in history:
    text = record.get("content")
    if record.get("role") == "user" and isinstance(text, str) and trace_re.search(text):
        pasted.append({"call_id": record.get("call_id"), "last_line": text.strip().splitlines()[-1]})
result = pasted
