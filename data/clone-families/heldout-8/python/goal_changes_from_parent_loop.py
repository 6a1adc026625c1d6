history = context.get("conversation_history", [])
by_id = {r["call_id"]: r for r in history}
result = []
for r in history:
    parent = by_id.get(r.get("parent_call_id"))
    if parent is None:
        continue
    goal = r.get("goal") or ""
    parent_goal = parent.get("goal") or ""
    if goal and parent_goal and goal != parent_goal:
        result.append(r["call_id"])
