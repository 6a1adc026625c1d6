from datetime import datetime

night = []
history = context.get("conversation_history") or []
for record in history:
    stamp = record.get("timestamp")
    if record.get("role") != "user" or not stamp:
        continue
    hour = datetime.fromisoformat(stamp.replace("Z", "+00:00")).hour
    if hour < 6:
        night.append({"message": record.get("call_id"), "utc_hour": hour})
night
