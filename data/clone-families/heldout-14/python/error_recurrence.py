from datetime import datetime

history = context.get("conversation_history", [])
times = {}
for record in history:
    outcome = record.get("outcome_summary") or {}
    if outcome.get("ok") is not False:
        continue
    kind = outcome.get("error_type")
    if not kind:
        continue
    stamp = datetime.fromisoformat(record["timestamp"].replace("Z", "+00:00"))
    times.setdefault(kind, []).append(stamp)

intervals = {}
for kind, stamps in times.items():
    if len(stamps) < 2:
        continue
    gaps = [(b - a).total_seconds() for a, b in zip(stamps, stamps[1:])]
    intervals[kind] = sum(gaps) / len(gaps)
result = intervals
