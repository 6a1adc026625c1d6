memory = context.get("memory") or {}
history = context.get("conversation_history", [])
known_goal = memory.get("current_goal") if isinstance(memory, dict) else None

plan = {}
for rec in history:
    goal = rec.get("goal")
    name = rec.get("method_name")
    if not isinstance(goal, str) or not goal:
        continue
    if not isinstance(name, str) or not name:
        continue
    bucket = plan.get(goal)
    if bucket is None:
        bucket = plan[goal] = []
    if name in bucket:
        continue
    bucket.append(name)
result = {"methods_by_goal": plan, "remembered_goal": known_goal}
