from datetime import datetime

history = context.get("conversation_history", [])
window = kwargs.get("seconds", 300)


def parse(ts):
    return datetime.strptime(ts, "%Y-%m-%dT%H:%M:%SZ")


if not history:
    result = 0
else:
    end = parse(history[-1]["timestamp"])
    result = sum(1 for r in history if (end - parse(r["timestamp"])).total_seconds() <= window)
