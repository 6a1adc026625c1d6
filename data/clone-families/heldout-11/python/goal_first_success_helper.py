import calendar
import time


def epoch(ts):
    return calendar.timegm(time.strptime(ts, "%Y-%m-%dT%H:%M:%SZ"))


def is_success(rec):
    summary = rec.get("outcome_summary")
    return isinstance(summary, dict) and summary.get("ok") is True


def seconds_until_success(goal, records):
    start = None
    for rec in records:
        if rec.get("goal") != goal:
            continue
        if start is None:
            start = epoch(rec["timestamp"])
        if is_success(rec):
            return epoch(rec["timestamp"]) - start
    return None


goals = []
for rec in conversation_history:
    g = rec.get("goal")
    if isinstance(g, str) and g and g not in goals:
        goals.append(g)

result = {g: seconds_until_success(g, conversation_history) for g in goals}
