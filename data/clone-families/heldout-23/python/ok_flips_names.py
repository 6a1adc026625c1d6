from collections import defaultdict

changes = defaultdict(int)
previous = {}
for entry in conversation_history:
    name = entry.get("method_name")
    status = (entry.get("outcome_summary") or {}).get("ok")
    if not name or not isinstance(status, bool):
        continue
    if name in previous:
        changes[name] += int(status != previous[name])
    previous[name] = status
dict(changes)
