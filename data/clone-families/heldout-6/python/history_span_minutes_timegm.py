import calendar
import time

conv = context.get("conversation_history") or []


def epoch(rec):
    return calendar.timegm(time.strptime(rec["timestamp"], "%Y-%m-%dT%H:%M:%SZ"))


span_minutes = None
if len(conv) > 1:
    span_minutes = round((epoch(conv[-1]) - epoch(conv[0])) / 60.0, 2)
result = {"span_minutes": span_minutes}
