from datetime import datetime

history = context["conversation_history"]
last_seen = None
out = []
for i, msg in enumerate(history):
    ts = msg.get("timestamp")
    if msg.get("role") == "assistant" and ts:
        now = datetime.fromisoformat(ts.replace("Z", "+00:00"))
        if last_seen:
            out.append({"index": i, "call_id": msg.get("call_id"), "seconds_since_previous_reply": (now - last_seen).total_seconds()})
        last_seen = now
result = out
