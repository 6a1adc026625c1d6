import re

NUMBER = re.compile(r"-?\d+(\.\d+)?")

history = context.get("conversation_history", [])
found = []
for record in history:
    method = record.get("method_name")
    if not method:
        continue
    values = [a for a in (record.get("args") or []) if isinstance(a, str) and NUMBER.fullmatch(a.strip())]
    if values:
        found.append({"call_id": record.get("call_id"), "method": method, "values": values})
result = found
