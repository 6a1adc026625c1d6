from collections import deque
from datetime import datetime

RATE_LIMIT_PER_MINUTE = 20


def to_dt(text):
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ")


history = context.get("conversation_history") or []
ordered = sorted(to_dt(item["timestamp"]) for item in history)
recent = deque()
highest = 0
for moment in ordered:
    recent.append(moment)
    while (moment - recent[0]).total_seconds() >= 60:
        recent.popleft()
    highest = max(highest, len(recent))

result = {
    "peak_per_minute": highest,
    "limit": RATE_LIMIT_PER_MINUTE,
    "over_limit": highest > RATE_LIMIT_PER_MINUTE,
}
