history = context.get("conversation_history", [])
result = None
for record in reversed(history):
    goal = record.get("goal")
    if goal:
        result = goal
        break
