import calendar
import time

log = context.get("conversation_history", [])
counts = {}
for item in log:
    epoch = calendar.timegm(time.strptime(item["timestamp"], "%Y-%m-%dT%H:%M:%SZ"))
    bucket = epoch // 3600
    counts[bucket] = counts.get(bucket, 0) + 1

total = len(log)
hours = {}
for bucket in sorted(counts):
    label = time.strftime("%Y-%m-%dT%H:00Z", time.gmtime(bucket * 3600))
    hours[label] = {"records": counts[bucket], "pct": round(100.0 * counts[bucket] / total, 1)}
result = {"hours": hours, "total": total, "busiest": max(hours, key=lambda h: hours[h]["records"]) if hours else None}
