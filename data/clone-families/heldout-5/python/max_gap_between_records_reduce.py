from datetime import datetime, timezone
from functools import reduce

records = context.get("conversation_history") or []


def to_seconds(record):
    stamp = datetime.strptime(record.get("timestamp"), "%Y-%m-%dT%H:%M:%SZ")
    return stamp.replace(tzinfo=timezone.utc).timestamp()


def step(acc, rec):
    prev, best = acc
    t = to_seconds(rec)
    if prev is not None:
        best = t - prev if best is None else max(best, t - prev)
    return (t, best)


_, best_gap = reduce(step, records, (None, None))
result = {"records": len(records), "max_gap": best_gap}
