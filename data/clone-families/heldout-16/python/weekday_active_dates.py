from collections import defaultdict
from datetime import datetime

history = context.get("conversation_history", [])
dates = defaultdict(set)
for record in history:
    ts = record.get("timestamp")
    if not ts:
        continue
    moment = datetime.fromisoformat(ts.replace("Z", "+00:00"))
    dates[moment.strftime("%A")].add(moment.date())
result = {day: len(seen) for day, seen in dates.items()}
