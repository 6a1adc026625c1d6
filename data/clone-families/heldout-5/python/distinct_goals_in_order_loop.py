history = context.get("conversation_history", [])

goals = []
for rec in history:
    g = rec.get("goal")
    if g and g not in goals:
        goals.append(g)

result = goals
