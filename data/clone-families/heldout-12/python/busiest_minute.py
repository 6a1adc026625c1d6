from datetime import datetime

history = context.get("conversation_history", [])
times = sorted(
    datetime.strptime(record["timestamp"], "%Y-%m-%dT%H:%M:%SZ") for record in history
)
best = 0
best_start = None
lo = 0
for hi, moment in enumerate(times):
    while (moment - times[lo]).total_seconds() >= 60:
        lo += 1
    if hi - lo + 1 > best:
        best = hi - lo + 1
        best_start = times[lo].isoformat() + "Z"
result = {"max_records_in_60s": best, "window_start": best_start}
