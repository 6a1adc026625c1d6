history = context.get("conversation_history", [])
new_by_turn = {}
known = set()
turn = None
for record in history:
    if record.get("role") == "user":
        turn = record.get("call_id")
    goal = record.get("goal")
    if not goal or goal in known:
        continue
    known.add(goal)
    if turn is None:
        continue
    new_by_turn.setdefault(turn, []).append(goal)
result = new_by_turn
