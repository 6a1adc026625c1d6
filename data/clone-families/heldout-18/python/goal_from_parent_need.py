history = context.get("conversation_history", [])
by_id = {r.get("call_id"): r for r in history if r.get("call_id")}
matches = []
for record in history:
    parent = by_id.get(record.get("parent_call_id"))
    if parent is None:
        continue
    goal, need = record.get("goal"), parent.get("need")
    if isinstance(goal, str) and isinstance(need, str) and goal.strip() and goal.strip() == need.strip():
        matches.append({"call_id": record.get("call_id"), "parent": parent.get("call_id"), "goal": goal.strip()})
result = matches
