from collections import Counter
from datetime import datetime

history = context.get("conversation_history", [])
days = Counter()
for record in history:
    ts = record.get("timestamp")
    if not ts:
        continue
    moment = datetime.fromisoformat(ts.replace("Z", "+00:00"))
    days[moment.strftime("%A")] += 1
result = dict(days)
