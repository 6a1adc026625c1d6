from itertools import groupby

history = context.get("conversation_history") or []
calls = sorted((h for h in history if h.get("method_name")), key=lambda h: h["method_name"])
result = []
for method, group in groupby(calls, key=lambda h: h["method_name"]):
    sizes = [len(h.get("args") or []) for h in group]
    result.append({"method": method, "avg_args": sum(sizes) / len(sizes), "calls": len(sizes)})
