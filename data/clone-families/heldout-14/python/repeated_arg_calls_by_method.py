from collections import defaultdict

history = context.get("conversation_history", [])
by_method = defaultdict(list)
for r in history:
    m = r.get("method_name")
    a = r.get("args") or []
    if m and len({repr(x) for x in a}) < len(a):
        by_method[m].append(r.get("call_id"))
result = dict(by_method)
