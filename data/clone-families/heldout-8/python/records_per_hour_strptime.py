from datetime import datetime

msgs = context["conversation_history"]
buckets = {}
for m in msgs:
    when = datetime.strptime(m["timestamp"], "%Y-%m-%dT%H:%M:%SZ")
    label = when.strftime("%Y-%m-%d %H:00 UTC")
    buckets[label] = buckets.get(label, 0) + 1

lines = [f"{label}: {n} record(s)" for label, n in sorted(buckets.items())]
lines.append(f"total: {len(msgs)} records in {len(buckets)} hour(s)")
result = "\n".join(lines)
