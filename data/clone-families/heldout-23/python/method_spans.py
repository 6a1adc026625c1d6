from datetime import datetime

history = context.get("conversation_history", [])
times = {}
for record in history:
    method = record.get("method_name")
    stamp = record.get("timestamp")
    if method and stamp:
        times.setdefault(method, []).append(datetime.fromisoformat(stamp.replace("Z", "+00:00")))
result = {method: (max(ts) - min(ts)).total_seconds() for method, ts in times.items()}
