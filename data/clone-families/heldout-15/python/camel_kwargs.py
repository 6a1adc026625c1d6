import re

CAMEL = re.compile(r"[a-z][A-Z]")

history = context.get("conversation_history", [])
flagged = []
for record in history:
    kwargs = record.get("kwargs")
    if not isinstance(kwargs, dict):
        continue
    keys = [k for k in kwargs if CAMEL.search(str(k))]
    if keys:
        flagged.append({"call_id": record.get("call_id"), "keys": keys})
result = flagged
