from datetime import datetime, timedelta


def to_dt(stamp):
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


records = [r for r in context["conversation_history"] if r.get("timestamp")]
if not records:
    result = {"window_start": None, "window_end": None, "speakers": []}
else:
    end = max(to_dt(r["timestamp"]) for r in records)
    start = end - timedelta(seconds=3600)
    active = {r["speaker"] for r in records if r.get("speaker") and to_dt(r["timestamp"]) >= start}
    result = {"window_start": start.isoformat(), "window_end": end.isoformat(), "speakers": sorted(active)}
