history = context.get("conversation_history") or []
turn_of = {}
owner = None
for item in history:
    if item.get("role") == "user":
        owner = item.get("call_id")
        turn_of.setdefault(owner, 0)
    elif owner is not None:
        info = item.get("outcome_summary") or {}
        turn_of[owner] += 1 if info.get("ok") is True else 0

result = sorted((uid for uid, wins in turn_of.items() if wins == 0), key=lambda uid: list(turn_of).index(uid))
