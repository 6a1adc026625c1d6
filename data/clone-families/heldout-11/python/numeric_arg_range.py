history = context.get("conversation_history", [])
ranges = {}
for record in history:
    method = record.get("method_name")
    if not method:
        continue
    for arg in record.get("args") or []:
        if isinstance(arg, bool) or not isinstance(arg, (int, float)):
            continue
        if method not in ranges:
            ranges[method] = [arg, arg]
        else:
            ranges[method][0] = min(ranges[method][0], arg)
            ranges[method][1] = max(ranges[method][1], arg)
result = {name: {"min": lo, "max": hi} for name, (lo, hi) in ranges.items()}
