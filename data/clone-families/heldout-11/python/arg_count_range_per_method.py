history = context.get("conversation_history", [])
ranges = {}
for record in history:
    method = record.get("method_name")
    if not method:
        continue
    arity = len(record.get("args") or [])
    if method not in ranges:
        ranges[method] = [arity, arity]
    else:
        ranges[method][0] = min(ranges[method][0], arity)
        ranges[method][1] = max(ranges[method][1], arity)
result = {name: {"min": lo, "max": hi} for name, (lo, hi) in ranges.items()}
