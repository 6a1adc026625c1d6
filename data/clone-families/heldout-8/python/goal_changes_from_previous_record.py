history = context.get("conversation_history", [])
result = []
for prev, r in zip(history, history[1:]):
    goal = r.get("goal") or ""
    prev_goal = prev.get("goal") or ""
    if goal and prev_goal and goal != prev_goal:
        result.append(r["call_id"])
