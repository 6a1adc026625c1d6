history = context.get("conversation_history") or []
order = []
used = {}
for entry in history:
    goal = (entry.get("goal") or "").strip()
    tool = (entry.get("method_name") or "").strip()
    if goal == "" or tool == "":
        continue
    if goal not in used:
        used[goal] = []
        order.append(goal)
    if tool not in used[goal]:
        used[goal].append(tool)
result = "\n".join(f"{g}: {' -> '.join(used[g])}" for g in order) or "no goal-tagged tool calls"
