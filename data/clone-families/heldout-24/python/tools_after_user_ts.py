from datetime import datetime, timedelta

history = context["conversation_history"]

def parse(stamp):
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))

stamped = [r for r in history if r.get("timestamp")]
result = []
for message in stamped:
    if message.get("role") != "user":
        continue
    start = parse(message["timestamp"])
    tools = [r.get("call_id") for r in stamped
             if r.get("role") == "tool" and start <= parse(r["timestamp"]) <= start + timedelta(seconds=60)]
    result.append({"call_id": message.get("call_id"), "tool_ids": tools, "timestamp": message["timestamp"]})
