from datetime import datetime


def to_seconds(ts):
    if isinstance(ts, (int, float)):
        return float(ts)
    return datetime.fromisoformat(str(ts).replace("Z", "+00:00")).timestamp()


if len(conversation_history) > 1:
    times = [to_seconds(rec["timestamp"]) for rec in conversation_history]
    result = max(later - earlier for earlier, later in zip(times, times[1:]))
else:
    result = None
