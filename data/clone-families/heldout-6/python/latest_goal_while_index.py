convo = context.get("conversation_history", [])
i = len(convo) - 1
goal = None
while i >= 0:
    candidate = convo[i].get("goal", "")
    if candidate:
        goal = candidate
        break
    i -= 1
result = goal
