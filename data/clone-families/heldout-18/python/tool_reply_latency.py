from datetime import datetime


def parse_ts(value):
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


history = context.get("conversation_history", [])
latencies = []
for i, record in enumerate(history):
    if record.get("role") != "tool" or not record.get("timestamp"):
        continue
    for later in history[i + 1:]:
        if later.get("role") == "assistant" and later.get("timestamp"):
            delta = parse_ts(later["timestamp"]) - parse_ts(record["timestamp"])
            latencies.append({
                "tool_call": record.get("call_id"),
                "reply": later.get("call_id"),
                "seconds": delta.total_seconds(),
            })
            break
result = latencies
