from datetime import datetime

previous = None
flagged = []
for record in conversation_history:
    stamp = record.get("timestamp")
    if not stamp:
        continue
    when = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    if previous is not None and when < previous:
        flagged.append(record.get("call_id"))
    previous = when

if flagged:
    result = f"{len(flagged)} record(s) go back in time: {', '.join(flagged)}"
else:
    result = "timestamps never go backwards"
