from datetime import datetime

history = context.get("conversation_history") or []
night = []
for record in history:
    stamp = record.get("timestamp")
    if record.get("role") != "user" or not stamp or not isinstance(stamp, str):
        continue
    hour = datetime.fromisoformat(stamp.replace("Z", "+00:00")).hour
    if hour < 6:
        night.append({"call_id": record.get("call_id"), "hour": hour, "timestamp": stamp})
night
