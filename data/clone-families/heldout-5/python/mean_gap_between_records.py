from datetime import datetime


def parse(ts):
    return datetime.fromisoformat(ts.replace("Z", "+00:00"))


history = context.get("conversation_history", [])
total = 0.0
count = 0
for prev, cur in zip(history, history[1:]):
    gap = (parse(cur["timestamp"]) - parse(prev["timestamp"])).total_seconds()
    total += gap
    count += 1

result = {"mean_gap_seconds": total / count if count else None}
