from datetime import datetime

points = []
for msg in conversation_history:
    ts = msg.get("timestamp")
    if ts:
        points.append((datetime.fromisoformat(ts.replace("Z", "+00:00")), msg.get("speaker")))

newest = max((p[0] for p in points), default=None)
recent = sorted({who for when, who in points if who and (newest - when).total_seconds() / 60 <= 60})
if newest is None:
    summary = "No timestamped records."
elif recent:
    summary = "Active in the last 60 minutes: " + ", ".join(recent)
else:
    summary = "Nobody with a name was active in the last 60 minutes."
summary
