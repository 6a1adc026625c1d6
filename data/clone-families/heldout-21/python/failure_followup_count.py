from datetime import datetime

history = context.get("conversation_history", [])
last_failure = None
count = 0
for record in history:
    stamp = record.get("timestamp")
    if not stamp:
        continue
    moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    if last_failure is not None and 0 <= (moment - last_failure).total_seconds() <= 30:
        count += 1
    if (record.get("outcome_summary") or {}).get("ok") is False:
        last_failure = moment
result = count
