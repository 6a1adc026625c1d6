import bisect
import calendar
import time


def epoch(stamp):
    return calendar.timegm(time.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ"))


seconds = sorted(epoch(r["timestamp"]) for r in context["conversation_history"])
peak = 0
for i, start in enumerate(seconds):
    end = bisect.bisect_left(seconds, start + 60)
    peak = max(peak, end - i)
result = peak
