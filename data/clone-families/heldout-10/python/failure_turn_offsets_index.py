import calendar
import time


def epoch(stamp):
    return calendar.timegm(time.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ"))


user_positions = [i for i, r in enumerate(conversation_history) if r.get("role") == "user"]
lines = []
for i, r in enumerate(conversation_history):
    summary = r.get("outcome_summary")
    if not summary or summary.get("ok") is not False:
        continue
    earlier = [p for p in user_positions if p < i]
    if not earlier:
        continue
    start = conversation_history[earlier[-1]]
    lines.append(f"{r['call_id']} failed {epoch(r['timestamp']) - epoch(start['timestamp'])}s after user message {start['call_id']}")
result = "\n".join(lines) if lines else "no failures inside a user turn"
