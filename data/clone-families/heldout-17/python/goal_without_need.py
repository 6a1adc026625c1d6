history = context["conversation_history"]
missing = []
for record in history:
    goal = record.get("goal")
    need = record.get("need")
    if not isinstance(goal, str) or not goal.strip():
        continue
    if isinstance(need, str) and need.strip():
        continue
    missing.append(record.get("call_id"))
result = missing
