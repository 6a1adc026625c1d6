history = context.get("conversation_history", [])
by_goal = {}
for rec in history:
    outcome = rec.get("outcome_summary") or {}
    if outcome.get("ok") is not False:
        continue
    goal = rec.get("goal")
    error_type = outcome.get("error_type")
    if not goal or not error_type:
        continue
    by_goal.setdefault(goal, set()).add(error_type)
result = {goal: sorted(types) for goal, types in by_goal.items()}
