history = conversation_history
if not history:
    result = 0
else:
    current_goal = history[-1].get("goal")
    n = 0
    for rec in reversed(history):
        if rec.get("goal") != current_goal:
            break
        n += 1
    result = n
