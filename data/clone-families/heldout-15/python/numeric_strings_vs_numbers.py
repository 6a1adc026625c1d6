import re

NUMBER = re.compile(r"-?\d+(\.\d+)?")

history = context.get("conversation_history", [])
real_positions = {}
for record in history:
    method = record.get("method_name")
    if not method:
        continue
    for i, a in enumerate(record.get("args") or []):
        if isinstance(a, (int, float)) and not isinstance(a, bool):
            real_positions.setdefault(method, set()).add(i)

found = []
for record in history:
    method = record.get("method_name")
    if not method:
        continue
    values = [a for i, a in enumerate(record.get("args") or [])
              if isinstance(a, str) and NUMBER.fullmatch(a.strip()) and i in real_positions.get(method, set())]
    if values:
        found.append({"call_id": record.get("call_id"), "method": method, "values": values})
result = found
