from datetime import datetime

msgs = context["conversation_history"]
waiting = []
gaps = []
for m in msgs:
    when = datetime.fromisoformat(m["timestamp"].replace("Z", "+00:00"))
    if m.get("role") == "user":
        waiting.append(when)
    elif m.get("role") == "assistant" and waiting:
        gaps.extend((when - asked).total_seconds() for asked in waiting)
        waiting = []

if gaps:
    result = {
        "mean_seconds": round(sum(gaps) / len(gaps), 2),
        "answered": len(gaps),
        "unanswered": len(waiting),
        "slowest": max(gaps),
    }
else:
    result = {"mean_seconds": None, "answered": 0, "unanswered": len(waiting)}
