from datetime import datetime, timezone


def utc_day(ts):
    return datetime.fromisoformat(ts.replace("Z", "+00:00")).astimezone(timezone.utc).date()


records = [r for r in (context.get("conversation_history") or []) if r.get("timestamp")]
result = [
    {"call_id": cur.get("call_id"), "from": utc_day(prev["timestamp"]).isoformat(), "to": utc_day(cur["timestamp"]).isoformat()}
    for prev, cur in zip(records, records[1:])
    if utc_day(prev["timestamp"]) != utc_day(cur["timestamp"])
]
