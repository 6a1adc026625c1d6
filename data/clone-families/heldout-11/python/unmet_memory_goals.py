memory = context.get("memory") or {}
history = context.get("conversation_history", [])
planned = memory.get("goals") or []

achieved = set()
for record in history:
    outcome = record.get("outcome_summary") or {}
    if outcome.get("ok") is True and record.get("goal"):
        achieved.add(record["goal"])

unmet = []
for goal in planned:
    if goal not in achieved and goal not in unmet:
        unmet.append(goal)
result = unmet
