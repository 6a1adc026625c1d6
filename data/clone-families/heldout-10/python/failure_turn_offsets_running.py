from datetime import datetime

history = context.get("conversation_history", [])
to_dt = lambda s: datetime.strptime(s, "%Y-%m-%dT%H:%M:%SZ")

# latest user timestamp visible at each position
latest_user = []
current = None
for item in history:
    if item.get("role") == "user":
        current = to_dt(item["timestamp"])
    latest_user.append(current)

delays = [
    (item["call_id"], (to_dt(item["timestamp"]) - latest_user[pos]).total_seconds())
    for pos, item in enumerate(history)
    if item.get("role") != "user"
    and latest_user[pos] is not None
    and (item.get("outcome_summary") or {}).get("ok") == False
]
mean_delay = sum(d for _, d in delays) / len(delays) if delays else None
result = {"delays": delays, "mean_seconds": mean_delay}
