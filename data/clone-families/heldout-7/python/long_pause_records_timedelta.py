from datetime import datetime, timedelta

log = context.get("conversation_history") or []
max_idle = timedelta(seconds=kwargs.get("seconds", 600))
last_seen = None
flagged = []
for rec in log:
    stamp = datetime.strptime(rec.get("timestamp"), "%Y-%m-%dT%H:%M:%SZ")
    if last_seen is not None and stamp - last_seen > max_idle:
        flagged.append(rec.get("call_id"))
    last_seen = stamp

result = {"after_long_pause": flagged, "pauses": len(flagged), "threshold_s": max_idle.total_seconds()}
