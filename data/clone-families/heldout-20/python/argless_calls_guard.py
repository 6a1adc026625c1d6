from collections import Counter

argless = Counter()
history = context["conversation_history"]
for record in history:
    method = record.get("method_name")
    if not isinstance(method, str) or not method:
        continue
    args = record.get("args")
    if args is None or len(args) == 0:
        argless[method] += 1
result = dict(argless)
