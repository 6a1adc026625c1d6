from datetime import datetime

hist = context.get("conversation_history", [])
where = {}
for i, h in enumerate(hist):
    goal = h.get("goal")
    if goal is None or goal == "":
        continue
    if goal not in where:
        where[goal] = [i, i]
    else:
        where[goal][1] = i

def at(i):
    return datetime.fromisoformat(hist[i]["timestamp"])

result = sorted(
    ((goal, (at(b) - at(a)).total_seconds() / 3600) for goal, (a, b) in where.items()),
    key=lambda pair: -pair[1],
)
result = [(goal, round(hours, 3)) for goal, hours in result]
