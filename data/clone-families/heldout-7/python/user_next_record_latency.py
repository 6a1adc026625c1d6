from datetime import datetime

history = context.get("conversation_history", [])


def parse(ts):
    return datetime.strptime(ts, "%Y-%m-%dT%H:%M:%SZ")


latencies = []
for i, record in enumerate(history):
    if record.get("role") != "user":
        continue
    if i + 1 < len(history):
        later = history[i + 1]
        latencies.append((parse(later["timestamp"]) - parse(record["timestamp"])).total_seconds())

result = sum(latencies) / len(latencies) if latencies else None
