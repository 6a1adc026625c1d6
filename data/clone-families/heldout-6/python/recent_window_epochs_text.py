import calendar
import time

hist = context.get("conversation_history") or []
limit = kwargs.get("seconds", 300)


def epoch(s):
    return calendar.timegm(time.strptime(s, "%Y-%m-%dT%H:%M:%SZ"))


stamps = [epoch(h["timestamp"]) for h in hist]
recent = [t for t in stamps if stamps[-1] - t <= limit]
result = f"{len(recent)} of {len(stamps)} records fall in the last {limit}s"
