from collections import Counter

history = context.get("conversation_history", [])
per_hour = Counter()
for rec in history:
    hour = rec["timestamp"][:13]  # e.g. "2026-11-30T14"
    per_hour[hour] += 1
result = dict(sorted(per_hour.items()))
