from datetime import datetime

history = context.get("conversation_history", [])


def parse(ts):
    return datetime.strptime(ts, "%Y-%m-%dT%H:%M:%SZ")


latencies = []
for i, record in enumerate(history):
    if record.get("role") != "user":
        continue
    for later in history[i + 1:]:
        if later.get("role") == "assistant":
            latencies.append((parse(later["timestamp"]) - parse(record["timestamp"])).total_seconds())
            break

result = sum(latencies) / len(latencies) if latencies else None
