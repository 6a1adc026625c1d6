from datetime import datetime

history = context.get("conversation_history", [])
window = kwargs.get("seconds", 300)


def parse(ts):
    return datetime.strptime(ts, "%Y-%m-%dT%H:%M:%SZ")


if not history:
    result = 0
else:
    start = parse(history[0]["timestamp"])
    result = sum(1 for r in history if (parse(r["timestamp"]) - start).total_seconds() <= window)
