from datetime import datetime

history = context.get("conversation_history", [])


def to_dt(ts):
    return datetime.fromisoformat(ts.replace("Z", "+00:00"))


delays = []
for i, rec in enumerate(history):
    if rec["outcome_summary"]["ok"]:
        continue
    for later in history[i + 1:]:
        if later["method"] == rec["method"]:
            seconds = (to_dt(later["timestamp"]) - to_dt(rec["timestamp"])).total_seconds()
            delays.append((rec["method"], seconds))
            break

result = delays
