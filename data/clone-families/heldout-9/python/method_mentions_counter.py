from collections import Counter

records = context.get("conversation_history") or []
called = list(dict.fromkeys(r["method_name"] for r in records if r.get("method_name")))
hits = Counter({name: 0 for name in called})
for r in records:
    body = r.get("content")
    if not body:
        continue
    for name in called:
        if body.find(name) != -1:
            hits[name] += 1
[{"method": name, "mentions": hits[name], "called": sum(1 for r in records if r.get("method_name") == name)} for name in called]
