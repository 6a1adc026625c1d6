from datetime import datetime


def to_seconds(ts):
    if isinstance(ts, (int, float)):
        return float(ts)
    return datetime.fromisoformat(str(ts).replace("Z", "+00:00")).timestamp()


if conversation_history:
    first = to_seconds(conversation_history[0]["timestamp"])
    last = to_seconds(conversation_history[-1]["timestamp"])
    result = last - first
else:
    result = None
