from collections import defaultdict
from datetime import datetime, timezone


def parse(ts):
    return datetime.strptime(ts, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)


records = context.get("conversation_history") or []
seen = defaultdict(list)
for r in records:
    o = r.get("outcome_summary") or {}
    if o.get("ok") is False and o.get("error_type"):
        seen[o["error_type"]].append(parse(r["timestamp"]))

result = {
    etype: {
        "occurrences": len(ts),
        "mean_minutes_between": round((ts[-1] - ts[0]).total_seconds() / 60 / (len(ts) - 1), 2),
    }
    for etype, ts in seen.items()
    if len(ts) > 1
}
