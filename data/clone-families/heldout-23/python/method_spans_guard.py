from datetime import datetime

times = {}
history = context.get("conversation_history", [])
for record in history or []:
    if not isinstance(record, dict):
        continue
    stamp = record.get("timestamp")
    method = record.get("method_name")
    if method and stamp:
        times.setdefault(method, []).append(datetime.fromisoformat(stamp.replace("Z", "+00:00")))
result = {method: (max(ts) - min(ts)).total_seconds() for method, ts in times.items() if ts}
