history = context["conversation_history"]
with_need = set()
goals = []
for record in history:
    goal = record.get("goal")
    need = record.get("need")
    if not isinstance(goal, str) or not goal.strip():
        continue
    if goal not in goals:
        goals.append(goal)
    if isinstance(need, str) and need.strip():
        with_need.add(goal)
result = [g for g in goals if g not in with_need]
