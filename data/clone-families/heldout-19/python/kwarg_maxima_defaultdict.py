from collections import defaultdict

values = defaultdict(list)
for call in context.get("conversation_history") or []:
    for k, v in (call.get("kwargs") or {}).items():
        if type(v) in (int, float):
            values[str(k)].append(v)
result = {k: max(vs) for k, vs in values.items()}
