import re
from datetime import datetime, timedelta

fail_re = re.compile(r"\bfail(?:ed|ure|s)?\b", re.I)

def parse(stamp):
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))

history = context["conversation_history"]
stamped = [r for r in history if r.get("timestamp")]
user_times = [parse(r["timestamp"]) for r in stamped if r.get("role") == "user"]
result = []
for record in stamped:
    text = record.get("content")
    if record.get("role") == "tool" and isinstance(text, str) and fail_re.search(text):
        at = parse(record["timestamp"])
        if any(t <= at <= t + timedelta(seconds=60) for t in user_times):
            result.append(record.get("call_id"))
