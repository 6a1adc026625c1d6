from datetime import datetime

history = context.get("conversation_history", [])
first_seen = {}
for rec in history:
    goal = rec.get("goal")
    if not goal:
        continue
    when = datetime.fromisoformat(rec["timestamp"])
    first_seen.setdefault(goal, when)
start = datetime.fromisoformat(history[0]["timestamp"]) if history else None
result = {goal: (when - start).total_seconds() for goal, when in first_seen.items()}
