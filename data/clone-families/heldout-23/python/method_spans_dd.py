from collections import defaultdict
from datetime import datetime

calls = context.get("conversation_history", [])
moments = defaultdict(list)
for call in calls:
    name = call.get("method_name")
    stamp = call.get("timestamp")
    if name and stamp:
        moments[name].append(datetime.fromisoformat(stamp.replace("Z", "+00:00")))
result = {name: (max(ts) - min(ts)).total_seconds() for name, ts in moments.items()}
