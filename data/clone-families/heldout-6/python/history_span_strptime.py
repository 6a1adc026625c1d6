from datetime import datetime

history = context.get("conversation_history", [])


def parse_ts(value):
    return datetime.strptime(value, "%Y-%m-%dT%H:%M:%SZ")


if len(history) < 2:
    result = {"span_seconds": None, "records": len(history)}
else:
    first = parse_ts(history[0]["timestamp"])
    last = parse_ts(history[-1]["timestamp"])
    result = {"span_seconds": (last - first).total_seconds(), "records": len(history)}
