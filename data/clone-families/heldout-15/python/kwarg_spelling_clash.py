import re

history = context.get("conversation_history", [])
spellings = {}
for record in history:
    kwargs = record.get("kwargs")
    method = record.get("method_name")
    if not isinstance(kwargs, dict) or not method:
        continue
    for k in kwargs:
        spellings.setdefault((method, re.sub("_", "", str(k)).lower()), set()).add(k)

flagged = []
for record in history:
    kwargs = record.get("kwargs")
    method = record.get("method_name")
    if not isinstance(kwargs, dict) or not method:
        continue
    keys = [k for k in kwargs if len(spellings[(method, re.sub("_", "", str(k)).lower())]) > 1]
    if keys:
        flagged.append({"call_id": record.get("call_id"), "keys": keys})
result = flagged
