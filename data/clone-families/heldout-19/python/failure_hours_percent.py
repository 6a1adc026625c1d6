from collections import Counter

history = context.get("conversation_history") or []
calls = Counter()
failures = Counter()
for item in history:
    ok = (item.get("outcome_summary") or {}).get("ok")
    ts = item.get("timestamp")
    if ts and isinstance(ok, bool):
        hour = int(ts[11:13])
        calls[hour] += 1
        failures[hour] += not ok
lines = [
    f"{hour:02d}:00 UTC - {100 * failures[hour] / calls[hour]:.1f}% failed ({failures[hour]}/{calls[hour]})"
    for hour in sorted(calls)
]
result = "\n".join(lines) if lines else "No finished calls with a timestamp."
