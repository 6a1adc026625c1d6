from datetime import datetime

history = context.get("conversation_history", [])
stamped = []
for record in history:
    if record.get("timestamp"):
        stamped.append((datetime.fromisoformat(record["timestamp"].replace("Z", "+00:00")), record))

idle = {}
if stamped:
    latest = max(moment for moment, _ in stamped)
    last_seen = {}
    for moment, record in stamped:
        speaker = record.get("speaker")
        if speaker and (speaker not in last_seen or moment > last_seen[speaker]):
            last_seen[speaker] = moment
    idle = {speaker: (latest - moment).total_seconds() for speaker, moment in sorted(last_seen.items())}
result = idle
