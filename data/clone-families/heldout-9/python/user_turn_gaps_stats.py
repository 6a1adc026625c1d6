from datetime import datetime

records = context.get("conversation_history") or []
stamps = []
for r in records:
    if r.get("role") == "user" and r.get("timestamp"):
        stamps.append(datetime.fromisoformat(r["timestamp"].rstrip("Z")))
intervals = [int((stamps[i + 1] - stamps[i]).total_seconds()) for i in range(len(stamps) - 1)]
{
    "intervals_s": intervals,
    "longest_s": max(intervals) if intervals else None,
    "mean_s": sum(intervals) / len(intervals) if intervals else None,
}
