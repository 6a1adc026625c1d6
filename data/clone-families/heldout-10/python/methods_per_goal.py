history = context.get("conversation_history", [])
by_goal = {}
for rec in history:
    goal = rec.get("goal")
    method = rec.get("method_name")
    if not goal or not method:
        continue
    methods = by_goal.setdefault(goal, [])
    if method not in methods:
        methods.append(method)
result = by_goal
