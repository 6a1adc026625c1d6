from datetime import datetime

history = context.get("conversation_history", [])
first_seen, last_seen = {}, {}
for rec in history:
    goal = rec.get("goal")
    if not goal:
        continue
    when = datetime.fromisoformat(rec["timestamp"])
    first_seen.setdefault(goal, when)
    last_seen[goal] = when
result = {goal: (last_seen[goal] - start).total_seconds() for goal, start in first_seen.items()}
