from datetime import datetime

messages = context.get("conversation_history") or []
stamped = [
    (m.get("call_id"), datetime.fromisoformat(m["timestamp"].replace("Z", "+00:00")).hour)
    for m in messages
    if m.get("role") == "user" and m.get("timestamp")
]
[{"call_id": cid, "hour": h} for cid, h in stamped if h < 6]
