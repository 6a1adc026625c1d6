from datetime import datetime, timedelta

WINDOW = timedelta(seconds=1800)
stamped = [
    (datetime.fromisoformat(h["timestamp"].replace("Z", "+00:00")), h)
    for h in conversation_history
    if h.get("timestamp")
]
if not stamped:
    result = []
else:
    end = max(t for t, _ in stamped)
    hits = [
        (t, h) for t, h in stamped
        if h.get("role") == "tool" and h.get("outcome_summary") and h["outcome_summary"].get("ok") is False and end - t <= WINDOW
    ]
    hits.sort(key=lambda pair: pair[0], reverse=True)
    result = [(h.get("call_id"), t.isoformat()) for t, h in hits]
