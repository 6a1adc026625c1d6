from collections import defaultdict
from datetime import datetime

buckets = defaultdict(int)
for rec in context["conversation_history"]:
    hour = datetime.fromisoformat(rec["timestamp"]).strftime("%H:00")
    buckets[hour] += 1
result = dict(sorted(buckets.items()))
