from collections import Counter
from datetime import datetime

msgs = context.get("conversation_history", [])
weekdays = Counter(
    datetime.fromisoformat(m["timestamp"].replace("Z", "+00:00")).strftime("%A")
    for m in msgs
    if m.get("timestamp")
)
total = sum(weekdays.values())
result = {
    "total": total,
    "share_pct": {day: round(100 * n / total, 1) for day, n in weekdays.most_common()},
}
