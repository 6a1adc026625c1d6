from datetime import datetime, timedelta

history = context.get("conversation_history", [])
idle = timedelta(minutes=10)
when = lambda r: datetime.fromisoformat(r["timestamp"].replace("Z", "+00:00"))

result = []
if history:
    head = history[0]
    for prev, cur in zip(history, history[1:]):
        if when(cur) - when(prev) > idle:
            result.append((head.get("call_id"), prev.get("call_id"), (when(prev) - when(head)).total_seconds()))
            head = cur
    result.append((head.get("call_id"), history[-1].get("call_id"), (when(history[-1]) - when(head)).total_seconds()))
