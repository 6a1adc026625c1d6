history = context.get("conversation_history", [])
state = context.get("memory")
goal_list = state.get("goals", []) if isinstance(state, dict) else []

still_open = []
for goal in goal_list or []:
    reached = any(
        rec.get("goal") == goal and (rec.get("outcome_summary") or {}).get("ok") is True
        for rec in history
    )
    if not reached and goal not in still_open:
        still_open.append(goal)
", ".join(still_open) if still_open else "all remembered goals reached"
