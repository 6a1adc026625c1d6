memory = context.get("memory") or {}
history = context.get("conversation_history", [])
planned = memory.get("goals") or []

mentioned = set()
for record in history:
    if record.get("goal"):
        mentioned.add(record["goal"])

unmet = []
for goal in planned:
    if goal not in mentioned and goal not in unmet:
        unmet.append(goal)
result = unmet
