from collections import deque

recent = deque(maxlen=2)
flips = {}
for rec in conversation_history:
    name = rec.get("method_name")
    if not isinstance(name, str) or not name:
        continue
    if len(recent) == 2 and recent[0] == name and recent[1] != name:
        flips[rec["call_id"]] = f"{name} -> {recent[1]} -> {name}"
    recent.append(name)
result = {"oscillations": flips, "total": len(flips)}
