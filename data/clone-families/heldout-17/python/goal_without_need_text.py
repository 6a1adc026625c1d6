lines = []
for step in conversation_history:
    goal, need = step.get("goal"), step.get("need")
    has_goal = isinstance(goal, str) and bool(goal.strip())
    has_need = isinstance(need, str) and bool(need.strip())
    if has_goal and not has_need:
        lines.append(f"{step.get('call_id')}: goal {goal!r} has no need attached")
"\n".join(lines) or "Every record with a goal also states a need."
