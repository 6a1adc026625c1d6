history = context.get("conversation_history", [])
by_method = {}
for rec in history:
    goal = rec.get("goal")
    method = rec.get("method_name")
    if not goal or not method:
        continue
    goals = by_method.setdefault(method, [])
    if goal not in goals:
        goals.append(goal)
result = by_method
