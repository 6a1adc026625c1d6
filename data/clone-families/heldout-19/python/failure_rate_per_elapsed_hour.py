from collections import defaultdict
from datetime import datetime

history = context.get("conversation_history", [])
stamped = [r for r in history if r.get("timestamp")]
start = min((datetime.fromisoformat(r["timestamp"].replace("Z", "+00:00")) for r in stamped), default=None)
finished = defaultdict(int)
failed = defaultdict(int)
for record in stamped:
    outcome = record.get("outcome_summary") or {}
    ok = outcome.get("ok")
    if ok not in (True, False):
        continue
    elapsed = datetime.fromisoformat(record["timestamp"].replace("Z", "+00:00")) - start
    hour = int(elapsed.total_seconds() // 3600)
    finished[hour] += 1
    if ok is False:
        failed[hour] += 1
result = {hour: round(failed[hour] / finished[hour], 3) for hour in sorted(finished)}
