from datetime import datetime, timedelta

def when(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00"))

log = context["conversation_history"]
dated = list(filter(lambda e: e.get("timestamp"), log))
result = []
for entry in dated:
    if entry.get("role") != "user":
        continue
    t0 = when(entry["timestamp"])
    window = filter(lambda e: e.get("role") == "tool" and t0 <= when(e["timestamp"]) <= t0 + timedelta(seconds=60), dated)
    result.append({"user_call": entry.get("call_id"), "tools_within_minute": list(map(lambda e: e.get("call_id"), window))})
