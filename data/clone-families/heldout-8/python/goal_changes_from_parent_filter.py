lookup = {m["call_id"]: m for m in conversation_history}


def drifted(m):
    up = lookup.get(m.get("parent_call_id"))
    if not up:
        return False
    mine, theirs = (m.get("goal") or "").strip(), (up.get("goal") or "").strip()
    return bool(mine) and bool(theirs) and mine != theirs


changed = list(filter(drifted, conversation_history))
result = "\n".join(f"{m['call_id']}: {lookup[m['parent_call_id']].get('goal')!r} -> {m['goal']!r}" for m in changed) or "no goal changes"
