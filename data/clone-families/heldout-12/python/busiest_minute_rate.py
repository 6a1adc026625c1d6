from datetime import datetime

log = context.get("conversation_history", [])
if not log:
    result = {"records_per_second": 0.0}
else:
    ts = sorted(datetime.strptime(r["timestamp"], "%Y-%m-%dT%H:%M:%SZ").timestamp() for r in log)
    top = max(sum(1 for other in ts if 0 <= other - t < 60) for t in ts)
    result = {"records_per_second": round(top / 60.0, 4), "window_seconds": 60}
