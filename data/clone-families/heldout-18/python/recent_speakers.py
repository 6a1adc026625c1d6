from datetime import datetime, timedelta

history = context.get("conversation_history", [])
stamped = []
for record in history:
    if record.get("timestamp"):
        stamped.append((datetime.fromisoformat(record["timestamp"].replace("Z", "+00:00")), record))

speakers = set()
if stamped:
    latest = max(moment for moment, _ in stamped)
    for moment, record in stamped:
        if latest - moment <= timedelta(hours=1) and record.get("speaker"):
            speakers.add(record["speaker"])
result = sorted(speakers)
