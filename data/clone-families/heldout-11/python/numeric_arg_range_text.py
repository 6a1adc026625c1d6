calls = context.get("conversation_history") or []
lo_hi = {}
order = []
for call in calls:
    fn = call.get("method_name")
    if not isinstance(fn, str) or not fn.strip():
        continue
    for value in call.get("args") or ():
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if fn not in lo_hi:
                order.append(fn)
                lo_hi[fn] = (value, value)
            low, high = lo_hi[fn]
            lo_hi[fn] = (value if value < low else low, value if value > high else high)

"\n".join(f"{fn}: {lo_hi[fn][0]}..{lo_hi[fn][1]}" for fn in order) or "no numeric arguments"
