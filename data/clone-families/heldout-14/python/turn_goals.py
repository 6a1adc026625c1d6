history = context.get("conversation_history", [])
goals_by_turn = {}
turn = None
for record in history:
    if record.get("role") == "user":
        turn = record.get("call_id")
    if turn is None:
        continue
    goal = record.get("goal")
    if not goal:
        continue
    bucket = goals_by_turn.setdefault(turn, [])
    if goal not in bucket:
        bucket.append(goal)
result = goals_by_turn
