from datetime import datetime, timezone

history = context["conversation_history"]
replies = [h for h in history if h.get("role") == "assistant" and h.get("timestamp")]
rows = []
for earlier, later in zip(replies, replies[1:]):
    t0 = datetime.fromisoformat(earlier["timestamp"].replace("Z", "+00:00")).astimezone(timezone.utc)
    t1 = datetime.fromisoformat(later["timestamp"].replace("Z", "+00:00")).astimezone(timezone.utc)
    rows.append({"from": earlier.get("call_id"), "to": later.get("call_id"), "seconds": int((t1 - t0).total_seconds())})
result = rows
