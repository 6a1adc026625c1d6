parents = {}
for step in conversation_history:
    if step.get("call_id"):
        parents[step["call_id"]] = step

lines = []
for step in conversation_history:
    parent = parents.get(step.get("parent_call_id"))
    goal = step.get("goal")
    if not parent or not isinstance(goal, str) or not goal.strip():
        continue
    need = parent.get("need")
    if isinstance(need, str) and need.strip() == goal.strip():
        lines.append(f'{step.get("call_id")} picked up "{goal.strip()}" from {parent.get("call_id")}')

"\n".join(lines) if lines else "No sub-call took its goal from its parent's need."
