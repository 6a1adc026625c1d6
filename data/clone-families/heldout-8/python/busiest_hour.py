from collections import Counter

history = context.get("conversation_history", [])
per_hour = Counter()
for rec in history:
    hour = rec["timestamp"][:13]
    per_hour[hour] += 1
if per_hour:
    hour, n = per_hour.most_common(1)[0]
    result = {"hour": hour, "records": n}
else:
    result = None
