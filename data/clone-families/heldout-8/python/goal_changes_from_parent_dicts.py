calls = context["conversation_history"]
goal_by_id = {c["call_id"]: (c.get("goal") or "") for c in calls}
result = [
    {"call_id": c["call_id"], "goal": c["goal"], "parent_goal": goal_by_id[c["parent_call_id"]]}
    for c in calls
    if c.get("parent_call_id") in goal_by_id
    and c.get("goal")
    and goal_by_id[c["parent_call_id"]]
    and c["goal"] != goal_by_id[c["parent_call_id"]]
]
