verbose = bool(kwargs.get("verbose"))


def is_user_goal(record):
    return record.get("speaker") == "user" and bool(record.get("goal"))


goals = list(map(lambda r: r["goal"], filter(is_user_goal, conversation_history or [])))
answer = goals[-1] if goals else None
if verbose:
    result = {"goal": answer, "goal_count": len(goals)}
else:
    result = answer
