import bisect
from datetime import datetime

log = context.get("conversation_history") or []
stamps = [datetime.strptime(e.get("timestamp"), "%Y-%m-%dT%H:%M:%SZ") for e in log]
assistant_at = [i for i, e in enumerate(log) if e.get("role") == "assistant"]

pairs = []
for i, e in enumerate(log):
    if e.get("role") == "user":
        j = bisect.bisect_right(assistant_at, i)
        if j < len(assistant_at):
            k = assistant_at[j]
            pairs.append((e.get("call_id"), log[k].get("call_id"), (stamps[k] - stamps[i]).total_seconds()))

total = sum(p[2] for p in pairs)
result = {
    "pairs": pairs,
    "average_latency": total / len(pairs) if pairs else None,
}
