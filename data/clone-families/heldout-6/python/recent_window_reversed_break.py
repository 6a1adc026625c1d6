from datetime import datetime, timedelta

records = context["conversation_history"]
span = int(kwargs.get("seconds") or 300)
count = 0
if records:
    newest = datetime.fromisoformat(records[-1]["timestamp"].replace("Z", "+00:00"))
    cutoff = newest - timedelta(seconds=span)
    for rec in reversed(records):
        if datetime.fromisoformat(rec["timestamp"].replace("Z", "+00:00")) < cutoff:
            break
        count += 1
result = {"window_seconds": span, "recent_records": count}
