tallies = {}
for turn in conversation_history:
    who, kind = turn.get("speaker"), turn.get("role")
    if who and kind:
        per_role = tallies.setdefault(who, {})
        per_role[kind] = per_role.get(kind, 0) + 1
{who: dict(per_role) for who, per_role in tallies.items()}
