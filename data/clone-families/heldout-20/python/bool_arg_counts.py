from collections import Counter

history = context.get("conversation_history", [])
flags = Counter()
for record in history:
    if not record.get("method_name"):
        continue
    args = record.get("args") or []
    flags[record["method_name"]] += sum(isinstance(arg, bool) for arg in args)
result = {method: n for method, n in flags.items() if n}
