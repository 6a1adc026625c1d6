import calendar
import time

MAX_ROWS = 50


def epoch(stamp):
    return calendar.timegm(time.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ"))


def retry_gap(items, start):
    origin = items[start]
    for candidate in items[start + 1:]:
        if candidate["method"] == origin["method"]:
            return epoch(candidate["timestamp"]) - epoch(origin["timestamp"])
    return None


log = context.get("conversation_history", [])
gaps = []
for k in range(len(log)):
    if log[k]["outcome_summary"].get("ok"):
        continue
    g = retry_gap(log, k)
    if g is not None:
        gaps.append({"method": log[k]["method"], "delay_s": float(g), "error": log[k]["outcome_summary"].get("error_type")})

result = {"retries": gaps[:MAX_ROWS], "count": len(gaps)}
