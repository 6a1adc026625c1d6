import calendar
import statistics
import time


def epoch(stamp):
    return calendar.timegm(time.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ"))


waits = []
for idx, turn in enumerate(conversation_history):
    if turn.get("role") == "user":
        reply = next((t for t in conversation_history[idx + 1:] if t.get("role") == "assistant"), None)
        if reply is not None:
            waits.append(epoch(reply["timestamp"]) - epoch(turn["timestamp"]))

if waits:
    result = f"average reply time: {statistics.mean(waits) / 60:.2f} min over {len(waits)} questions"
else:
    result = "no answered questions"
