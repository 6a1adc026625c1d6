from datetime import datetime

history = context.get("conversation_history", [])
limit = kwargs.get("seconds", 600)


def parse(ts):
    return datetime.strptime(ts, "%Y-%m-%dT%H:%M:%SZ")


after_pause = []
for prev, cur in zip(history, history[1:]):
    gap = (parse(cur["timestamp"]) - parse(prev["timestamp"])).total_seconds()
    if gap > limit:
        after_pause.append(cur["call_id"])

result = after_pause
