from datetime import datetime

history = context.get("conversation_history", [])
delays = {}
for index, record in enumerate(history):
    outcome = record.get("outcome_summary") or {}
    if outcome.get("ok") is not False:
        continue
    kind = outcome.get("error_type")
    if not kind or index + 1 >= len(history):
        continue
    stamp = datetime.fromisoformat(record["timestamp"].replace("Z", "+00:00"))
    after = datetime.fromisoformat(history[index + 1]["timestamp"].replace("Z", "+00:00"))
    delays.setdefault(kind, []).append((after - stamp).total_seconds())

intervals = {}
for kind, gaps in delays.items():
    intervals[kind] = sum(gaps) / len(gaps)
result = intervals
