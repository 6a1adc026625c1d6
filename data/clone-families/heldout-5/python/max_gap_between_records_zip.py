from datetime import datetime


def parse(ts):
    return datetime.fromisoformat(ts.replace("Z", "+00:00"))


history = context.get("conversation_history", [])
longest = None
after = None
for prev, cur in zip(history, history[1:]):
    gap = (parse(cur["timestamp"]) - parse(prev["timestamp"])).total_seconds()
    if longest is None or gap > longest:
        longest = gap
        after = cur["call_id"]

result = {"max_gap_seconds": longest, "resumed_at": after}
