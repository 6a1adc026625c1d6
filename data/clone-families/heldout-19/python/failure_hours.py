from collections import defaultdict
from datetime import datetime

history = context.get("conversation_history", [])
finished = defaultdict(int)
failed = defaultdict(int)
for record in history:
    stamp = record.get("timestamp")
    outcome = record.get("outcome_summary") or {}
    ok = outcome.get("ok")
    if not stamp or ok not in (True, False):
        continue
    hour = datetime.fromisoformat(stamp.replace("Z", "+00:00")).hour
    finished[hour] += 1
    if ok is False:
        failed[hour] += 1
result = {hour: round(failed[hour] / finished[hour], 3) for hour in sorted(finished)}
