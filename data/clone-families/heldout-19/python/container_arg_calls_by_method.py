from collections import defaultdict

history = context.get("conversation_history") or []
by_method = defaultdict(list)
for entry in history:
    name = entry.get("method_name")
    nested = [a for a in (entry.get("args") or []) if isinstance(a, (list, dict))]
    if name and nested:
        by_method[name].append(entry.get("call_id"))
result = dict(by_method)
