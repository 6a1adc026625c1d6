idx = len(conversation_history)
goal_text = None
while idx > 0:
    idx -= 1
    r = conversation_history[idx]
    if r.get("speaker") != "user":
        continue
    g = r.get("goal")
    if g:
        goal_text = g
        break
result = goal_text
