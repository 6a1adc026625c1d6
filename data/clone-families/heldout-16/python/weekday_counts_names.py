from datetime import datetime

NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

records = context.get("conversation_history") or []
tally = [0] * 7
for r in records:
    stamp = r.get("timestamp")
    if isinstance(stamp, str) and stamp:
        tally[datetime.strptime(stamp[:19], "%Y-%m-%dT%H:%M:%S").weekday()] += 1
result = {NAMES[i]: n for i, n in enumerate(tally) if n}
