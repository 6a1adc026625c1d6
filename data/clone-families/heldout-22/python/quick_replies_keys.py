from datetime import datetime

asked_at = None
fast = []
for msg in conversation_history:
    ts = msg.get("timestamp")
    if not ts:
        continue
    moment = datetime.fromisoformat(ts.replace("Z", "+00:00"))
    kind = msg.get("role")
    if kind == "assistant" and asked_at is not None and 0 <= (moment - asked_at).total_seconds() <= 5:
        fast.append({"reply": msg.get("call_id"), "delay_s": (moment - asked_at).total_seconds()})
    elif kind == "user":
        asked_at = moment
result = fast
