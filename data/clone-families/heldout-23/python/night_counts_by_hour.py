from collections import Counter
from datetime import datetime

history = context.get("conversation_history") or []
per_hour = Counter()
for record in history:
    stamp = record.get("timestamp")
    if record.get("role") != "user" or not stamp:
        continue
    hour = datetime.fromisoformat(stamp.replace("Z", "+00:00")).hour
    if hour < 6:
        per_hour[hour] += 1
dict(per_hour)
