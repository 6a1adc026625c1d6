from datetime import datetime

history = context.get("conversation_history", [])
times = sorted(
    datetime.strptime(record["timestamp"], "%Y-%m-%dT%H:%M:%SZ") for record in history
)
best = 0
best_start = None
per_minute = {}
for moment in times:
    bucket = moment.replace(second=0)
    per_minute[bucket] = per_minute.get(bucket, 0) + 1
    if per_minute[bucket] > best:
        best = per_minute[bucket]
        best_start = bucket.isoformat() + "Z"
result = {"max_records_in_60s": best, "window_start": best_start}
