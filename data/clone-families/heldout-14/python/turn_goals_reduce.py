from functools import reduce


def step(state, rec):
    turn, acc = state
    if rec.get("role") == "user":
        turn = rec.get("call_id")
    goal = rec.get("goal")
    if turn is not None and goal:
        acc.setdefault(turn, set()).add(goal)
    return turn, acc


_, per_turn = reduce(step, context.get("conversation_history", []), (None, {}))
result = {turn: sorted(goals) for turn, goals in per_turn.items()}
turns_with_goals = len(per_turn)
