from collections import Counter

turns = context.get("conversation_history", [])
remaining = Counter(t["method_name"] for t in turns if t.get("method_name"))
unretried = []
for t in turns:
    name = t.get("method_name")
    if not name:
        continue
    remaining[name] -= 1
    if t["outcome_summary"]["status"] != "ok" and remaining[name] == 0:
        unretried.append((t["call_id"], name))
unretried
