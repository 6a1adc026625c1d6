from collections import defaultdict
from datetime import datetime

by_goal = defaultdict(list)
for rec in conversation_history:
    if rec.get("goal"):
        by_goal[rec["goal"]].append(datetime.fromisoformat(rec["timestamp"].replace("Z", "+00:00")))

lines = []
for goal, times in by_goal.items():
    lines.append(f"{goal}: active for {int((times[-1] - times[0]).total_seconds())}s")
result = "\n".join(lines) if lines else "no goals recorded"
